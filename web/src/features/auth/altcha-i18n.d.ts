/** altcha's translation modules register themselves and export nothing; they ship no typings. */
declare module 'altcha/i18n/es-es';
