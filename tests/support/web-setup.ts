import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Web files run two at a time beside the API tests (vitest.config.ts): on two busy cores a page can take
// seconds to render. findBy/waitFor wait up to 15 s before failing (a passing test does not wait longer).
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.cookie.split(';').forEach((c) => {
    document.cookie = `${c.split('=')[0].trim()}=; max-age=0; path=/`;
  });
});
