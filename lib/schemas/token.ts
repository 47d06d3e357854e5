// What a person may name an API token, on the tokens page and in `npm run token -- create`.
import { z } from 'zod';
import { NO_CONTROL_CHARACTERS, NO_CONTROL_CHARACTERS_MESSAGE } from './text';

export const TOKEN_NAME_MAX_LENGTH = 100;

export const TokenName = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(TOKEN_NAME_MAX_LENGTH, { error: `must be at most ${TOKEN_NAME_MAX_LENGTH} characters` })
  .regex(NO_CONTROL_CHARACTERS, { error: NO_CONTROL_CHARACTERS_MESSAGE });
