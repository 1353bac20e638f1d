// Valid response bodies, typed with the generated types so a spec change that breaks them fails tsc.
import type {
  ApiKey,
  CallbackDeliveryList,
  CallbackSecret,
  ChatCompletion,
  Completion,
  CreditSummary,
  DeletedFile,
  EmbeddingList,
  FileObject,
  ImagesResponse,
  Message,
  ModelList,
  Token,
  UsageRecord,
  UsageReport,
  VideoTask,
  VideoTaskCreated,
  VideoTaskList,
} from '../src/index.js';

export const chatCompletion: ChatCompletion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi!' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
};

export const completion: Completion = {
  id: 'cmpl-1',
  object: 'text_completion',
  created: 1_700_000_000,
  model: 'gpt-3.5-turbo-instruct',
  choices: [{ text: 'world', index: 0, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

export const message: Message = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  content: [{ type: 'text', text: 'Hello' }],
  model: 'claude-sonnet-4-5',
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 4, output_tokens: 1 },
};

export const modelList: ModelList = {
  object: 'list',
  data: [
    {
      id: 'gpt-4o-mini',
      object: 'model',
      created: 1_700_000_000,
      owned_by: 'openai',
      type: 'text',
    },
  ],
};

export const fileObject: FileObject = {
  id: 'file-abc',
  object: 'file',
  url: 'http://cdn.test/files/file-abc.png',
  size: 4,
  created_at: 1_700_000_000,
  filename: 'cat.png',
  mime_type: 'image/png',
  purpose: 'image',
};

export const imagesResponse: ImagesResponse = {
  created: 1_700_000_000,
  data: [{ url: 'http://cdn.test/files/file-img.png', revised_prompt: 'A cat, in fine detail' }],
};

export const embeddingList: EmbeddingList = {
  object: 'list',
  data: [{ object: 'embedding', index: 0, embedding: [0.6, 0.8] }],
  model: 'text-embedding-3-small',
  usage: { prompt_tokens: 3, total_tokens: 3 },
};

export const deletedFile: DeletedFile = { id: 'file-abc', object: 'file', deleted: true };

export const videoTaskCreated: VideoTaskCreated = {
  task_id: 'vt_1',
  status: 'pending',
  created_at: 1_700_000_000,
};

export const videoTask: VideoTask = {
  task_id: 'vt_1',
  object: 'video.task',
  model: 'kling-v3',
  status: 'completed',
  progress: 100,
  created_at: 1_700_000_000,
  updated_at: 1_700_000_060,
  completed_at: 1_700_000_060,
  video: {
    url: 'http://cdn.test/videos/vt_1.mp4',
    duration: 5,
    width: 1280,
    height: 720,
    mime_type: 'video/mp4',
  },
  error: null,
};

export const videoTaskList: VideoTaskList = {
  object: 'list',
  data: [videoTask],
  has_more: false,
  next_cursor: null,
};

export const creditSummary: CreditSummary = {
  object: 'credit_summary',
  total_granted: 10,
  total_used: 2.5,
  total_available: 7.5,
  budgets: { key: null, team: null },
  grants: {
    object: 'list',
    data: [
      {
        object: 'credit_grant',
        id: 'grant_1',
        grant_amount: 10,
        used_amount: 2.5,
        effective_at: 1_700_000_000,
        expires_at: null,
      },
    ],
  },
};

export const token: Token = {
  id: 7,
  name: 'ci',
  key: `sk-${'a1B2'.repeat(12)}`,
  quota: 1_000_000,
  created_time: 1_700_000_000,
  expires_at: null,
  models: null,
  rpm: null,
  tpm: null,
  callback_secret: 'whsec_abc',
};

export const callbackSecret: CallbackSecret = {
  secret: 'whsec_abc',
  previous_secret_expires_at: null,
  created_at: 1_700_000_000,
};

export const callbackDeliveryList: CallbackDeliveryList = {
  object: 'list',
  data: [
    {
      id: 'msg_1',
      object: 'callback.delivery',
      task_id: 'vt_1',
      event_type: 'video.task.completed',
      url: 'https://example.com/hook',
      status: 'delivered',
      attempts: [{ at: 1_700_000_061, status_code: 200, latency_ms: 12, error: null }],
      created_at: 1_700_000_060,
      next_attempt_at: null,
      delivered_at: 1_700_000_061,
    },
  ],
  has_more: false,
  next_cursor: null,
};

export const apiKey: ApiKey = {
  object: 'api_key',
  id: 7,
  name: 'ci',
  key_prefix: 'sk-a1B2a1',
  role: 'user',
  status: 'active',
  quota: 1_000_000,
  used: 250_000,
  remaining: 750_000,
  models: null,
  rpm: 60,
  tpm: null,
  created_at: 1_700_000_000,
  expires_at: null,
  revoked_at: null,
  budget: null,
  team_id: null,
};

export const usageReport: UsageReport = {
  object: 'usage_report',
  start_time: 1_699_920_000,
  end_time: 1_700_006_400,
  bucket_width: '1d',
  group_by: ['model'],
  data: [
    {
      object: 'usage_bucket',
      start_time: 1_699_920_000,
      end_time: 1_700_006_400,
      results: [
        {
          object: 'usage_result',
          key_id: null,
          model: 'gpt-4o-mini',
          kind: null,
          requests: 2,
          input_tokens: 10,
          cache_read_tokens: 0,
          cache_write_5m_tokens: 0,
          cache_write_1h_tokens: 0,
          output_tokens: 20,
          video_seconds: 0,
          units: 300,
          cost: 0.0003,
        },
      ],
    },
  ],
  totals: {
    object: 'usage_result',
    key_id: null,
    model: null,
    kind: null,
    requests: 2,
    input_tokens: 10,
    cache_read_tokens: 0,
    cache_write_5m_tokens: 0,
    cache_write_1h_tokens: 0,
    output_tokens: 20,
    video_seconds: 0,
    units: 300,
    cost: 0.0003,
  },
};

export const usageRecord: UsageRecord = {
  object: 'usage_record',
  id: 1042,
  created_at: 1_700_000_060,
  key_id: 7,
  kind: 'text',
  model: 'gpt-4o-mini',
  input_tokens: 7,
  cache_read_tokens: 0,
  cache_write_5m_tokens: 0,
  cache_write_1h_tokens: 0,
  output_tokens: 16,
  video_seconds: null,
  units: 11,
  cost: 0.000011,
  request_id: 'req_1',
  task_id: null,
};
