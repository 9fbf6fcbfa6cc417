// Runs before every test file: folders made with tempDir() are removed when the file is done.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

afterAll(removeTempDirs);
