import { afterEach } from 'vitest';
import { contractViolations } from './response-contract.js';

// A response the OpenAPI document does not describe fails the test that caused it.
afterEach(() => {
  if (contractViolations.length === 0) return;
  const found = contractViolations.splice(0);
  throw new Error(`Responses the OpenAPI document does not describe:\n${[...new Set(found)].join('\n')}`);
});
