// A one-line prompt editor: typing, paste, cursor keys, Backspace, Ctrl+A/E/U/W, history with ↑/↓.
import { Text, useInput } from 'ink';
import { useRef, useState } from 'react';

export interface PromptInputProps {
  value: string;
  onChange: (value: string) => void;
  onSubmit: (value: string) => void;
  /** Earlier submitted lines, oldest first, for ↑/↓. */
  history?: readonly string[];
  placeholder?: string;
  /** When false, keys are ignored and no cursor is drawn. */
  isActive?: boolean;
}

/**
 * Controlled input; Enter calls `onSubmit`. Esc and Ctrl+C are left to the parent.
 *
 * @example
 * ```tsx
 * const [value, setValue] = useState('');
 * <PromptInput value={value} onChange={setValue} onSubmit={(line) => send(line)} />
 * ```
 */
export function PromptInput({
  value,
  onChange,
  onSubmit,
  history = [],
  placeholder = '',
  isActive = true,
}: PromptInputProps) {
  const [cursor, setCursor] = useState(value.length);
  // Keys can arrive faster than React re-renders (a paste, tmux send-keys): the handler reads and
  // writes these refs, so each key sees the line as the previous key left it.
  const line = useRef({ value, cursor: value.length });
  const lastPropValue = useRef(value);
  if (value !== lastPropValue.current) {
    // The parent changed the line (cleared it after a submit, say).
    lastPropValue.current = value;
    line.current = { value, cursor: Math.min(line.current.cursor, value.length) };
  }
  // Where ↑/↓ is in `history`; `history.length` means "the line being typed".
  const historyIndex = useRef<number | null>(null);
  const draft = useRef('');
  const shownCursor = Math.min(cursor, value.length);

  const replace = (next: string, nextCursor = next.length) => {
    line.current = { value: next, cursor: nextCursor };
    lastPropValue.current = next;
    onChange(next);
    setCursor(nextCursor);
  };
  const setCursorTo = (nextCursor: number) => {
    line.current = { ...line.current, cursor: nextCursor };
    setCursor(nextCursor);
  };

  useInput(
    (input, key) => {
      const { value, cursor: position } = line.current;
      if (key.escape || (key.ctrl && input === 'c') || key.tab) return;
      if (key.return) {
        historyIndex.current = null;
        onSubmit(value);
        return;
      }
      if (key.upArrow || key.downArrow) {
        if (history.length === 0) return;
        if (historyIndex.current === null) {
          historyIndex.current = history.length;
          draft.current = value;
        }
        const next = Math.min(
          history.length,
          Math.max(0, historyIndex.current + (key.upArrow ? -1 : 1)),
        );
        historyIndex.current = next;
        replace(next === history.length ? draft.current : (history[next] ?? ''));
        return;
      }
      if (key.leftArrow) return setCursorTo(Math.max(0, position - 1));
      if (key.rightArrow) return setCursorTo(Math.min(value.length, position + 1));
      if (key.home || (key.ctrl && input === 'a')) return setCursorTo(0);
      if (key.end || (key.ctrl && input === 'e')) return setCursorTo(value.length);
      if (key.backspace || key.delete) {
        // Most terminals send DEL (0x7f) for Backspace, which Ink reports as `delete`.
        if (position === 0) return;
        return replace(value.slice(0, position - 1) + value.slice(position), position - 1);
      }
      if (key.ctrl && input === 'u') return replace(value.slice(position), 0);
      if (key.ctrl && input === 'w') {
        const start = value.slice(0, position).replace(/\S+\s*$/, '').length;
        return replace(value.slice(0, start) + value.slice(position), start);
      }
      if (key.ctrl || key.meta || input === '') return;
      // A paste (or keys sent faster than they are read) arrives as one string: keep it on one line,
      // and a line break at its end is an Enter.
      const submits = /[\r\n]$/.test(input);
      const text = input.replace(/[\r\n]+$/, '').replace(/\r\n?|\n/g, ' ');
      const next = value.slice(0, position) + text + value.slice(position);
      replace(next, position + text.length);
      if (submits) {
        historyIndex.current = null;
        onSubmit(next);
      }
    },
    { isActive },
  );

  if (value === '') {
    return isActive ? (
      <Text>
        <Text inverse>{placeholder.slice(0, 1) || ' '}</Text>
        <Text dimColor>{placeholder.slice(1)}</Text>
      </Text>
    ) : (
      <Text dimColor>{placeholder}</Text>
    );
  }
  if (!isActive) return <Text>{value}</Text>;
  return (
    <Text>
      {value.slice(0, shownCursor)}
      <Text inverse>{value.slice(shownCursor, shownCursor + 1) || ' '}</Text>
      {value.slice(shownCursor + 1)}
    </Text>
  );
}
