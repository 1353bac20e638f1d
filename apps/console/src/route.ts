// Screens are paths under /console/ (the gateway answers every one with index.html), so a screen
// can be bookmarked and reloaded; the query string carries a screen's filters.
import { useCallback, useEffect, useState } from 'react';

export const SCREENS = {
  keys: 'Keys',
  teams: 'Teams',
  balance: 'Balance',
  usage: 'Usage',
  log: 'Request log',
  tasks: 'Video tasks',
  callbacks: 'Callback deliveries',
  audit: 'Audit log',
} as const;

export type Screen = keyof typeof SCREENS;

const BASE = '/console/';

export interface Route {
  screen: Screen | undefined;
  params: URLSearchParams;
}

function current(): Route {
  const name = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '';
  const screen = name in SCREENS ? (name as Screen) : undefined;
  return { screen, params: new URLSearchParams(location.search) };
}

/** The screen in the address bar, and a way to go to another (or the same with other filters). */
export function useRoute(): [Route, (screen: Screen, params?: Record<string, string>) => void] {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const onPop = () => setRoute(current());
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  const go = useCallback((screen: Screen, params: Record<string, string> = {}) => {
    const query = new URLSearchParams(params).toString();
    history.pushState(null, '', `${BASE}${screen}${query ? `?${query}` : ''}`);
    setRoute(current());
  }, []);
  return [route, go];
}
