import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { i18n } from '../lib/i18n.js';
import { loadProblemTexts } from '../lib/problem-text-registry.js';
import { messages as englishAdminTexts } from '../locales/en/admin.po';
import { messages as englishAppTexts } from '../locales/en/app.po';
import { messages as englishFieldTexts } from '../locales/en/field.po';
import { clearToasts } from '../components/ui/toast-store.js';
import { setOutboxStore, createMemoryOutboxStore } from '../features/outbox/outbox-store.js';
import { createMemoryReferenceCache, setReferenceCache } from '../lib/reference-cache.js';

// findBy/waitFor wait for a condition, never for a time: a longer limit costs a passing test
// nothing, and a lazily loaded screen on a busy 2-core machine can take more than the default 1 s
// (more since Lingui's macros pass every file through Babel on its first import).
configure({ asyncUtilTimeout: 15_000 });

// Every case starts in English with every catalogue, as the spec's texts are English.
i18n.load('en', { ...englishAppTexts, ...englishFieldTexts, ...englishAdminTexts });
// As the app does just after its first screen.
await loadProblemTexts();

// jsdom has no IndexedDB: every case gets empty in-memory stores of its own.
beforeEach(() => {
  i18n.activate('en');
  document.documentElement.lang = 'en';
  setOutboxStore(createMemoryOutboxStore());
  setReferenceCache(createMemoryReferenceCache());
});

// The web project runs without Vitest globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  clearToasts();
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
