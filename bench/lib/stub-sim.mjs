// A stand-in for @modelgate/provider-sim's OpenAI chat endpoint, used only while developing the
// harness (BENCH_UPSTREAM=stub). Same options and the same wire shapes for chat completions.
import http from 'node:http';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startSimulator({
  port = 0,
  host = '127.0.0.1',
  ttftMs = 0,
  tokensPerSecond = 0,
  latencyMs = 0,
  outputTokens = 32,
} = {}) {
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(raw || '{}');
    const tokens = Math.max(1, Math.min(outputTokens, body.max_tokens ?? outputTokens));
    const base = { id: 'chatcmpl-stub', created: Math.floor(Date.now() / 1000), model: body.model };
    const usage = { prompt_tokens: 5, completion_tokens: tokens, total_tokens: 5 + tokens };
    if (!body.stream) {
      await sleep(latencyMs);
      const content = Array.from({ length: tokens }, (_, i) => `w${i}`).join(' ');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (obj) =>
      res.write(
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...obj })}\n\n`,
      );
    await sleep(ttftMs);
    send({
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    });
    for (let i = 0; i < tokens && !res.destroyed; i++) {
      if (tokensPerSecond > 0 && i > 0) await sleep(1000 / tokensPerSecond);
      send({ choices: [{ index: 0, delta: { content: ` w${i}` }, finish_reason: null }] });
    }
    send({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    if (body.stream_options?.include_usage) send({ choices: [], usage });
    res.end('data: [DONE]\n\n');
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  return {
    url: `http://${host}:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
