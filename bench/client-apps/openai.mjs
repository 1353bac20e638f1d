// The same app with the official openai SDK.
import OpenAI from 'openai';

const client = new OpenAI({
  baseURL: 'http://127.0.0.1:8080/v1',
  apiKey: 'sk-demo',
  dangerouslyAllowBrowser: true,
});
const stream = await client.chat.completions.create({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Say hi' }],
  stream: true,
});
for await (const chunk of stream) console.log(chunk.choices[0]?.delta?.content ?? '');
