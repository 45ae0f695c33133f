// altcha ships React typings that do not resolve under NodeNext (directory
// imports); the little this app uses is declared here.
import type { HTMLAttributes, Ref } from 'react';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'altcha-widget': HTMLAttributes<HTMLElement> & {
        ref?: Ref<HTMLElement>;
        challenge?: string;
        name?: string;
        language?: string;
        auto?: 'off' | 'onfocus' | 'onload' | 'onsubmit';
      };
    }
  }
}

declare global {
  var $altcha: { algorithms: Map<string, () => Worker> };
}
