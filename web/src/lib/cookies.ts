export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** The cookie as written: Secure on an https page, as the server's own cookies are (issue 21). */
export function cookieString(name: string, value: string, maxAgeSeconds: number, https: boolean): string {
  return `${name}=${encodeURIComponent(value)}; path=/; max-age=${maxAgeSeconds}; SameSite=Lax${https ? '; Secure' : ''}`;
}

export function writeCookie(name: string, value: string, maxAgeSeconds: number): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and not in every supported browser.
  document.cookie = cookieString(name, value, maxAgeSeconds, window.location.protocol === 'https:');
}
