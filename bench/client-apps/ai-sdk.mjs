// The same app with the AI SDK (`ai` + `@ai-sdk/openai`, chat completions API).
import { createOpenAI } from '@ai-sdk/openai';
import { streamText } from 'ai';

const openai = createOpenAI({ baseURL: 'http://127.0.0.1:8080/v1', apiKey: 'sk-demo' });
const result = streamText({
  model: openai.chat('gpt-4o-mini'),
  messages: [{ role: 'user', content: 'Say hi' }],
});
for await (const text of result.textStream) console.log(text);
