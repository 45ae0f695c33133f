import { describe, expect, test } from 'vitest';
import { cookieString, readCookie, writeCookie } from './cookies.js';

describe('cookies', () => {
  test('are Secure on an https page only, and always SameSite=Lax on the whole site', () => {
    expect(cookieString('lang', 'es', 60, true)).toBe('lang=es; path=/; max-age=60; SameSite=Lax; Secure');
    expect(cookieString('lang', 'es', 60, false)).toBe('lang=es; path=/; max-age=60; SameSite=Lax');
  });

  test('a written cookie reads back on the http test page', () => {
    writeCookie('probe', 'a b', 60);
    expect(readCookie('probe')).toBe('a b');
  });
});
