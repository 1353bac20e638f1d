// The console: a sign-in form until a key is given, then the screens the key's role may see.
import type { ModelgateError } from '@modelgate/core';
import { asModelgateError } from '@modelgate/core';
import { useEffect, useState } from 'react';
import { AuditScreen } from './AuditScreen.js';
import { BalanceScreen } from './BalanceScreen.js';
import { CallbacksScreen } from './CallbacksScreen.js';
import { ErrorNote } from './ErrorNote.js';
import { KeysScreen } from './KeysScreen.js';
import { RequestLogScreen } from './RequestLogScreen.js';
import { SCREENS, type Screen, useRoute } from './route.js';
import { SignIn } from './SignIn.js';
import { forgetKey, type Session, signIn, storedKey } from './session.js';
import { TasksScreen } from './TasksScreen.js';
import { TeamsScreen } from './TeamsScreen.js';
import { UsageScreen } from './UsageScreen.js';

const ADMIN_SCREENS: Screen[] = ['keys', 'teams', 'usage', 'log', 'tasks', 'callbacks', 'audit'];
const USER_SCREENS: Screen[] = ['balance', 'usage', 'log', 'tasks', 'callbacks'];

export function App() {
  const [session, setSession] = useState<Session>();
  const [error, setError] = useState<ModelgateError>();
  const [checking, setChecking] = useState(() => storedKey() !== null);
  const [route, go] = useRoute();

  const submit = (key: string) => {
    setChecking(true);
    setError(undefined);
    signIn(key).then(
      (s) => {
        setSession(s);
        setChecking(false);
      },
      (caught: unknown) => {
        forgetKey();
        setError(asModelgateError(caught));
        setChecking(false);
      },
    );
  };

  // A reload keeps the session: the stored key is checked again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on the first render
  useEffect(() => {
    const key = storedKey();
    if (key) submit(key);
  }, []);

  if (!session) {
    return (
      <main className="sign-in">
        <h1>modelgate console</h1>
        <SignIn onSubmit={submit} busy={checking} />
        <ErrorNote error={error} />
      </main>
    );
  }

  const screens = session.role === 'admin' ? ADMIN_SCREENS : USER_SCREENS;
  const screen = route.screen && screens.includes(route.screen) ? route.screen : screens[0]!;
  const { client } = session;
  const signOut = () => {
    forgetKey();
    setSession(undefined);
  };

  return (
    <>
      <header className="top">
        <strong>modelgate console</strong>
        <nav aria-label="Screens">
          {screens.map((s) => (
            <a
              key={s}
              href={`/console/${s}`}
              aria-current={s === screen ? 'page' : undefined}
              onClick={(event) => {
                event.preventDefault();
                go(s);
              }}
            >
              {SCREENS[s]}
            </a>
          ))}
        </nav>
        <span className="who" data-testid="who">
          {session.role === 'admin' ? 'Administrator' : 'Read-only'} ·{' '}
          <code>{session.keyPrefix}…</code>
        </span>
        <button type="button" className="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>
        <h1>{SCREENS[screen]}</h1>
        {screen === 'keys' && (
          <KeysScreen client={client} onOpenTeam={(name) => go('teams', { name })} />
        )}
        {screen === 'teams' && (
          <TeamsScreen
            // A new search (a link from the Keys screen included) starts from its own input.
            key={route.params.get('name') ?? ''}
            client={client}
            params={route.params}
            onFilter={(params) => go('teams', params)}
          />
        )}
        {screen === 'balance' && <BalanceScreen client={client} />}
        {screen === 'usage' && <UsageScreen client={client} admin={session.role === 'admin'} />}
        {screen === 'log' && (
          <RequestLogScreen
            client={client}
            admin={session.role === 'admin'}
            params={route.params}
            onFilter={(params) => go('log', params)}
          />
        )}
        {screen === 'tasks' && <TasksScreen client={client} readOnly={session.role !== 'admin'} />}
        {screen === 'callbacks' && (
          <CallbacksScreen client={client} readOnly={session.role !== 'admin'} />
        )}
        {screen === 'audit' && <AuditScreen client={client} />}
      </main>
    </>
  );
}
