// The smallest app that streams one chat with @modelgate/core + @modelgate/stream.
import { createClient } from '@modelgate/core';
import { streamChatCompletion } from '@modelgate/stream';

const client = createClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sk-demo' });
const stream = streamChatCompletion(client, {
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Say hi' }],
});
for await (const chunk of stream) console.log(chunk.choices[0]?.delta?.content ?? '');
