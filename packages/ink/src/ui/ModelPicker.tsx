// Choosing the chat model with the arrow keys, from the gateway's list.
import type { Model } from '@modelgate/core';
import { Box, Text, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';

export interface ModelPickerProps {
  /** The models to offer (the screen passes the text models of `GET /v1/models`). */
  models: readonly Model[];
  /** Highlighted first. */
  current: string;
  onSelect: (id: string) => void;
  onCancel: () => void;
  /** Rows of the list shown at once. Default 8. */
  visibleRows?: number;
}

/**
 * ↑/↓ move, Enter picks, Esc keeps the current model.
 *
 * @example
 * ```tsx
 * <ModelPicker models={list.data} current="gpt-4o-mini" onSelect={setModel} onCancel={close} />
 * ```
 */
export function ModelPicker({
  models,
  current,
  onSelect,
  onCancel,
  visibleRows = 8,
}: ModelPickerProps) {
  const [index, setIndex] = useState(() =>
    Math.max(
      0,
      models.findIndex((m) => m.id === current),
    ),
  );
  // Keys can arrive before React re-renders (and re-subscribes the handler): the handler works on
  // this ref, so Enter right after ↓ picks the row ↓ moved to.
  const position = useRef(index);
  const moveTo = (next: number) => {
    position.current = next;
    setIndex(next);
  };
  // Ink subscribes the key handler in an effect, after the first frame is drawn; the help line
  // appears once that happened, so whoever waits for it (a script, a test) knows keys now arrive.
  const [listening, setListening] = useState(false);
  useInput((_input, key) => {
    if (key.escape) return onCancel();
    if (key.return) {
      const chosen = models[position.current];
      return chosen ? onSelect(chosen.id) : onCancel();
    }
    if (key.upArrow) moveTo((position.current - 1 + models.length) % models.length);
    if (key.downArrow) moveTo((position.current + 1) % models.length);
  });
  useEffect(() => setListening(true), []);
  // A window of the list that keeps the highlighted row in view.
  const start = Math.min(
    Math.max(0, index - Math.floor(visibleRows / 2)),
    Math.max(0, models.length - visibleRows),
  );
  const shown = models.slice(start, start + visibleRows);
  const width = Math.max(0, ...models.map((m) => m.id.length));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>{listening ? `Model (↑/↓, Enter to pick, Esc to keep ${current})` : 'Model'}</Text>
      {shown.map((model, i) => {
        const selected = start + i === index;
        return (
          <Text key={model.id} color={selected ? 'cyan' : undefined} inverse={selected}>
            {selected ? '› ' : '  '}
            {model.id.padEnd(width)} {model.owned_by}
            {model.id === current ? ' (current)' : ''}
          </Text>
        );
      })}
      {models.length > visibleRows ? (
        <Text dimColor>
          {index + 1}/{models.length}
        </Text>
      ) : null}
    </Box>
  );
}
