// The inline script's entry (vite.config.ts builds this file as one IIFE, with PAGE_CHUNKS).
import type { PageChunks } from '../lib/early';
import { runEarly } from './early-main';

declare const __BH_PAGE_CHUNKS__: PageChunks;

runEarly(__BH_PAGE_CHUNKS__);
