// The line under the prompt: model, gateway, tokens this session, credits left, and what keys do now.
import { Box, Text } from 'ink';
import { type ErrorInfo, formatError } from '../errors.js';
import { formatCount, formatCredits } from '../format.js';

export interface StatusLineProps {
  model: string;
  baseUrl: string;
  sessionTokens: number;
  /** Credits left; `undefined` while loading; an error when the balance could not be read. */
  credits: number | ErrorInfo | undefined;
  /** What the keys do right now, e.g. "Esc to stop". */
  hint: string;
}

export function StatusLine({ model, baseUrl, sessionTokens, credits, hint }: StatusLineProps) {
  const creditText =
    credits === undefined
      ? 'credits …'
      : typeof credits === 'number'
        ? `${formatCredits(credits)} credits`
        : `credits ? (${credits.status ?? formatError(credits)})`;
  return (
    <Box justifyContent="space-between">
      <Text dimColor>
        <Text color="magenta">{model}</Text> · {baseUrl} · {formatCount(sessionTokens)} tokens ·{' '}
        {creditText}
      </Text>
      <Text dimColor>{hint}</Text>
    </Box>
  );
}
