// A real S3-compatible server for tests: s3rver (npm), on 127.0.0.1 port 0, storing in a fresh
// temp directory, with one bucket. It speaks the S3 REST protocol (SigV4 requests, Range,
// HeadObject, presigned GETs), so the gateway's store talks to it exactly as to MinIO or AWS.
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../src/config/storage.js';

/** s3rver's fixed credentials. */
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

export interface TestS3Server {
  /** `http://127.0.0.1:PORT` */
  endpoint: string;
  bucket: string;
  /** The same server as MODELGATE_S3_URL. */
  url: string;
  settings(overrides?: Partial<S3Settings>): S3Settings;
  /** Method, path and headers of every request the server received, oldest first. */
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'modelgate'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'mg-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const requests: TestS3Server['requests'] = [];
  server.httpServer.on('request', (req: IncomingMessage) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    requests,
    url: `s3+http://${ACCESS_KEY}:${SECRET_KEY}@127.0.0.1:${port}/${bucket}`,
    settings: (overrides = {}) => ({
      endpoint,
      bucket,
      prefix: '',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
      presign: false,
      ...overrides,
    }),
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
