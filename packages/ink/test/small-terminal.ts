// ink-testing-library's terminal has no height; this one has `rows`, for what depends on it.
import { EventEmitter } from 'node:events';
import { render } from 'ink';
import type { ReactNode } from 'react';

class FakeStdout extends EventEmitter {
  readonly frames: string[] = [];
  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.frames.push(frame);
    return true;
  };
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write = (data: string) => {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  };
  read = () => {
    const { data } = this;
    this.data = null;
    return data;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

/** Renders in debug mode (every frame = the whole scrollback + the live part) on a columns×rows terminal. */
export function renderInTerminal(tree: ReactNode, columns: number, rows: number) {
  const stdout = new FakeStdout(columns, rows);
  const stdin = new FakeStdin();
  const instance = render(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStdout(columns, rows) as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    stdin,
    frames: stdout.frames,
    lastFrame: () => stdout.frames.at(-1),
    unmount: () => instance.unmount(),
  };
}
