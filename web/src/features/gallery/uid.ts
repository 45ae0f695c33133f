/** A project uid suggested from its title: lower case, no accents, dashes ("Oficina de Títulos" -> "oficina-de-titulos"). */
export function suggestUid(title: string): string {
  return title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 63)
    .replace(/-+$/, '');
}

export const UID_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
