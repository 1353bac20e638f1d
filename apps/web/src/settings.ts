// Where the demo sends requests: typed into the page and kept in localStorage, or given by Vite env.
import { useCallback, useState } from 'react';

export interface Settings {
  baseUrl: string;
  apiKey: string;
}

const STORAGE_KEY = 'modelgate.demo.settings';

function defaults(): Settings {
  return {
    // `pnpm start`'s gateway; it answers CORS, so the page may live on another origin.
    baseUrl: import.meta.env.VITE_MODELGATE_BASE_URL || 'http://localhost:8080',
    apiKey: import.meta.env.VITE_MODELGATE_API_KEY || '',
  };
}

function load(): Settings {
  try {
    const stored = JSON.parse(
      localStorage.getItem(STORAGE_KEY) ?? 'null',
    ) as Partial<Settings> | null;
    return { ...defaults(), ...stored };
  } catch {
    return defaults();
  }
}

/** The settings and a setter that also stores them. */
export function useSettings(): [Settings, (next: Settings) => void] {
  const [settings, setSettings] = useState(load);
  const save = useCallback((next: Settings) => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    setSettings(next);
  }, []);
  return [settings, save];
}
