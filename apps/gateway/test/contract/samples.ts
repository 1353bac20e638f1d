/**
 * One harmless request per operation of spec/openapi.yaml (auth, rate limits and the pipeline's
 * stages answer before the route runs); every-operation.test.ts checks it lists exactly the spec's.
 */
import type { Operation } from './support.js';

export interface Sample {
  method: string;
  path: string;
  json?: unknown;
  admin?: boolean;
}

export const SAMPLES: Record<Operation, Sample> = {
  'GET /v1/models': { method: 'GET', path: '/v1/models' },
  'POST /v1/chat/completions': {
    method: 'POST',
    path: '/v1/chat/completions',
    json: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 4 },
  },
  'POST /v1/completions': {
    method: 'POST',
    path: '/v1/completions',
    json: { model: 'gpt-4o-mini', prompt: 'hi', max_tokens: 4 },
  },
  'POST /v1/messages': {
    method: 'POST',
    path: '/v1/messages',
    json: { model: 'claude-haiku-4-5', max_tokens: 4, messages: [{ role: 'user', content: 'hi' }] },
  },
  'POST /v1/messages/count_tokens': {
    method: 'POST',
    path: '/v1/messages/count_tokens',
    json: { model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'hi' }] },
  },
  'POST /v1/responses': {
    method: 'POST',
    path: '/v1/responses',
    json: { model: 'gpt-4o-mini', input: 'hi', max_output_tokens: 4 },
  },
  'GET /v1/responses/{response_id}': { method: 'GET', path: '/v1/responses/resp_nope' },
  'DELETE /v1/responses/{response_id}': { method: 'DELETE', path: '/v1/responses/resp_nope' },
  'GET /v1/responses/{response_id}/input_items': {
    method: 'GET',
    path: '/v1/responses/resp_nope/input_items',
  },
  'POST /v1/responses/input_tokens': {
    method: 'POST',
    path: '/v1/responses/input_tokens',
    json: { model: 'gpt-4o-mini', input: 'hi' },
  },
  'POST /v1/responses/compact': {
    method: 'POST',
    path: '/v1/responses/compact',
    json: { model: 'gpt-4o-mini', input: 'hi' },
  },
  'POST /v1/images/generations': {
    method: 'POST',
    path: '/v1/images/generations',
    json: { model: 'dall-e-2', prompt: 'hi', size: '256x256' },
  },
  'POST /v1/images/edits': {
    method: 'POST',
    path: '/v1/images/edits',
    json: { model: 'gpt-image-1', prompt: 'hi', images: [{ file_id: 'file-nope' }] },
  },
  'POST /v1/images/variations': { method: 'POST', path: '/v1/images/variations' },
  'POST /v1/embeddings': {
    method: 'POST',
    path: '/v1/embeddings',
    json: { model: 'text-embedding-3-small', input: 'hi' },
  },
  'GET /v1/dashboard/billing/credit_grants': {
    method: 'GET',
    path: '/v1/dashboard/billing/credit_grants',
  },
  'POST /v1/token': {
    method: 'POST',
    path: '/v1/token',
    json: { name: 'x', quota: 1 },
    admin: true,
  },
  'POST /v1/files': { method: 'POST', path: '/v1/files' },
  'GET /v1/files/{file_id}': { method: 'GET', path: '/v1/files/file-nope' },
  'DELETE /v1/files/{file_id}': { method: 'DELETE', path: '/v1/files/file-nope' },
  'POST /v1/video/generations': {
    method: 'POST',
    path: '/v1/video/generations',
    json: { model: 'sora-nope', prompt: 'x' },
  },
  'GET /v1/video/generations': { method: 'GET', path: '/v1/video/generations' },
  'GET /v1/video/generations/{task_id}': { method: 'GET', path: '/v1/video/generations/vt_nope' },
  'POST /v1/video/generations/{task_id}/cancel': {
    method: 'POST',
    path: '/v1/video/generations/vt_nope/cancel',
  },
  'GET /v1/callbacks/secret': { method: 'GET', path: '/v1/callbacks/secret' },
  'POST /v1/callbacks/secret': { method: 'POST', path: '/v1/callbacks/secret' },
  'GET /v1/callbacks/deliveries': { method: 'GET', path: '/v1/callbacks/deliveries' },
  'GET /v1/audit': { method: 'GET', path: '/v1/audit', admin: true },
  'POST /v1/callbacks/deliveries/{delivery_id}/redeliver': {
    method: 'POST',
    path: '/v1/callbacks/deliveries/msg_nope/redeliver',
  },
  'GET /v1/keys': { method: 'GET', path: '/v1/keys', admin: true },
  'GET /v1/keys/{key_id}': { method: 'GET', path: '/v1/keys/987654', admin: true },
  'PATCH /v1/keys/{key_id}': {
    method: 'PATCH',
    path: '/v1/keys/987654',
    json: { rpm: 5 },
    admin: true,
  },
  'POST /v1/keys/{key_id}/revoke': {
    method: 'POST',
    path: '/v1/keys/987654/revoke',
    admin: true,
  },
  'GET /v1/teams': { method: 'GET', path: '/v1/teams', admin: true },
  'POST /v1/teams': { method: 'POST', path: '/v1/teams', json: { name: 'contract' }, admin: true },
  'GET /v1/teams/{team_id}': { method: 'GET', path: '/v1/teams/987654', admin: true },
  'PATCH /v1/teams/{team_id}': {
    method: 'PATCH',
    path: '/v1/teams/987654',
    json: { name: 'renamed' },
    admin: true,
  },
  'DELETE /v1/teams/{team_id}': { method: 'DELETE', path: '/v1/teams/987654', admin: true },
  'GET /v1/usage': { method: 'GET', path: '/v1/usage' },
  'GET /v1/usage/records': { method: 'GET', path: '/v1/usage/records' },
};
