/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Default gateway base URL (default: this page's origin, whose /v1 the server proxies). */
  readonly VITE_MODELGATE_BASE_URL?: string;
  /** Default API key (development only: it ends up in the bundle). */
  readonly VITE_MODELGATE_API_KEY?: string;
}
