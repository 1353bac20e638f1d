// The line under the prompt: model, gateway, tokens this session, credits left, and what keys do now.
// It always fits one row of the terminal (see fitStatusLine).
import type { CreditSummary } from '@modelgate/core';
import { Box, Text, useStdout } from 'ink';
import { type ErrorInfo, formatError } from '../errors.js';
import { formatCount, formatCreditsLeft } from '../format.js';
import { fitStatusLine } from './status-text.js';

export interface StatusLineProps {
  model: string;
  baseUrl: string;
  sessionTokens: number;
  /** The key's balance; `undefined` while loading; an error when it could not be read. */
  credits: CreditSummary | ErrorInfo | undefined;
  /** What the keys do right now, e.g. "Esc to stop". */
  hint: string;
}

export function StatusLine({ model, baseUrl, sessionTokens, credits, hint }: StatusLineProps) {
  const { stdout } = useStdout();
  const creditText =
    credits === undefined
      ? 'credits …'
      : 'total_available' in credits
        ? formatCreditsLeft(credits)
        : `credits ? (${credits.status ?? formatError(credits)})`;
  const { left, right } = fitStatusLine(
    { model, baseUrl, tokens: `${formatCount(sessionTokens)} tokens`, credits: creditText, hint },
    stdout.columns || 80,
  );
  return (
    <Box justifyContent="space-between">
      <Text dimColor wrap="truncate">
        <Text color="magenta">{left.slice(0, model.length)}</Text>
        {left.slice(model.length)}
      </Text>
      {right ? <Text dimColor>{right}</Text> : null}
    </Box>
  );
}
