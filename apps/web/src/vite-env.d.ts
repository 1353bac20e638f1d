/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Default gateway base URL (default: http://localhost:8080, where `pnpm start` runs one). */
  readonly VITE_MODELGATE_BASE_URL?: string;
  /** Default API key (development only: it ends up in the bundle). */
  readonly VITE_MODELGATE_API_KEY?: string;
}
