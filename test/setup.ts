// Run before each test file (vitest.config.ts' setupFiles): its temporary folders go after its tests.

import { afterAll } from 'vitest';
import { removeTempdirs } from './helpers.ts';

afterAll(removeTempdirs);
