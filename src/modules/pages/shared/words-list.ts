import type { Message } from './message.js';

/**
 * The words of the list's pages (an estate with more homes than one page of the list shows: issue 34's
 * 2,000-home budget), in the eight languages of the page (words.ts merges them into each catalogue).
 */
export const LIST_EN = {
  listPages: 'Pages of the list',
  previousPage: 'Previous page',
  nextPage: 'Next page',
  pageOf: 'Page {page} of {pages}',
};

export type ListKey = keyof typeof LIST_EN;

export const LIST_MORE: Record<string, Partial<Record<ListKey, Message>>> = {
  de: { listPages: 'Seiten der Liste', previousPage: 'Vorherige Seite', nextPage: 'Nächste Seite', pageOf: 'Seite {page} von {pages}' },
  fr: { listPages: 'Pages de la liste', previousPage: 'Page précédente', nextPage: 'Page suivante', pageOf: 'Page {page} sur {pages}' },
  es: { listPages: 'Páginas de la lista', previousPage: 'Página anterior', nextPage: 'Página siguiente', pageOf: 'Página {page} de {pages}' },
  it: { listPages: "Pagine dell'elenco", previousPage: 'Pagina precedente', nextPage: 'Pagina successiva', pageOf: 'Pagina {page} di {pages}' },
  nl: { listPages: "Pagina's van de lijst", previousPage: 'Vorige pagina', nextPage: 'Volgende pagina', pageOf: 'Pagina {page} van {pages}' },
  pl: { listPages: 'Strony listy', previousPage: 'Poprzednia strona', nextPage: 'Następna strona', pageOf: 'Strona {page} z {pages}' },
  cs: { listPages: 'Stránky seznamu', previousPage: 'Předchozí stránka', nextPage: 'Další stránka', pageOf: 'Stránka {page} z {pages}' },
};
