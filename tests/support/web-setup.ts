import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Web files run two at a time beside the API tests (vitest.config.ts): on two busy cores a page can take
// seconds to render, and the first test of a file waits for its lazy page to load (FormBuilderPage's first
// test took 15.5 s in a clean-clone CI on a loaded machine). findBy/waitFor wait up to 30 s before failing
// (a passing test does not wait longer; a test may take 60 s).
configure({ asyncUtilTimeout: 30_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.cookie.split(';').forEach((c) => {
    document.cookie = `${c.split('=')[0].trim()}=; max-age=0; path=/`;
  });
});
