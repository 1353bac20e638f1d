// Choosing the chat model with the arrow keys, from the gateway's list.
import type { Model } from '@modelgate/core';
import { Box, Text, useInput } from 'ink';
import { useState } from 'react';

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
  useInput((_input, key) => {
    if (key.escape) return onCancel();
    if (key.return) {
      const chosen = models[index];
      return chosen ? onSelect(chosen.id) : onCancel();
    }
    if (key.upArrow) setIndex((i) => (i - 1 + models.length) % models.length);
    if (key.downArrow) setIndex((i) => (i + 1) % models.length);
  });
  // A window of the list that keeps the highlighted row in view.
  const start = Math.min(
    Math.max(0, index - Math.floor(visibleRows / 2)),
    Math.max(0, models.length - visibleRows),
  );
  const shown = models.slice(start, start + visibleRows);
  const width = Math.max(0, ...models.map((m) => m.id.length));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>Model (↑/↓, Enter to pick, Esc to keep {current})</Text>
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
