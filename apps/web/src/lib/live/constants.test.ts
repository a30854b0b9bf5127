import { EVENTS } from '@bountyhunt/shared/live';
import { expect, it } from 'vitest';
import { LIVE } from './constants';

it('copies the contract’s stream numbers', () => {
  expect(LIVE).toEqual({
    heartbeatMs: EVENTS.heartbeatMs,
    retryMs: EVENTS.retryMs,
    maxWatch: EVENTS.maxWatch,
  });
});
