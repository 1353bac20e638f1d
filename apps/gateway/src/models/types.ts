/** The text model catalogue's types, shared by its modes (catalog.ts, passthrough.ts). */
import type { Model } from '@modelgate/core';
import type { TextProvider } from '../providers/text/index.js';
import type { Weighted } from '../routing/router.js';
import type { TextPrice } from './defaults.js';

export interface TextDeployment extends Weighted {
  provider: TextProvider;
  upstreamModel: string;
}

export interface TextModel {
  id: string;
  ownedBy: string;
  price: TextPrice;
  /** Used as max_tokens when a request gives none (Anthropic requires one). */
  maxOutputTokens: number;
  deployments: TextDeployment[];
}

/** One entry of GET /v1/models (OpenAI list shape plus `type`). */
export interface ModelListEntry {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  type: Model['type'];
  [extra: string]: unknown;
}

export type CatalogMode = 'config' | 'passthrough' | 'demo' | 'none';

export interface TextModelCatalog {
  readonly mode: CatalogMode;
  /** The model, or null when the id is unknown (→ 404 model_not_found). Synchronous: the hot path. */
  resolve(id: string): TextModel | null;
  /**
   * For an id `resolve` did not know: in pass-through mode, asks the providers again (rate-limited,
   * concurrent misses share one fetch) and resolves after; elsewhere the same as `resolve`.
   */
  resolveFresh(id: string): Promise<TextModel | null>;
  /** Text models for GET /v1/models. */
  list(): ModelListEntry[];
  /** Learns what it needs before serving (pass-through: the providers' lists, bounded wait). */
  start(): Promise<void>;
  close(): Promise<void>;
}
