// The public page's islands: each enhances server-rendered HTML that already works without JavaScript
// (STYLE.md "The public page"). Loaded as `<script type="module" src="/assets/page/page.<hash>.js">`.
import { $, $$ } from './dom.js';
import { initFavourites } from './favourites.js';
import { initForm } from './form.js';
import { initLightbox } from './lightbox.js';
import { initFilters, initSelection } from './list.js';
import { initMap } from './map.js';
import { NAVIGATOR, type Navigator, initNavigator } from './navigator.js';
import { initNested } from './nested.js';
import { initPanoramas } from './panoramas.js';
import { initPlaceholders } from './placeholders.js';
import { initResize } from './resize.js';
import { pageWords } from './words.js';
import { initZoom } from './zoom.js';

document.documentElement.classList.add('js');
if (window.parent !== window) document.documentElement.classList.add('in-embed');
const words = pageWords();
initPlaceholders();
const navigators = $$(NAVIGATOR)
  .map((root) => initNavigator(root, words))
  .filter((n): n is Navigator => n !== null);
for (const navigator of navigators) initZoom(navigator.root);
initSelection(navigators, words);
initNested();
const filters = $<HTMLFormElement>('form[data-module="home-filters"]');
initFavourites(filters ? initFilters(filters, words) : () => undefined, words);
for (const gallery of $$('[data-gallery]')) initLightbox(gallery, words);
for (const button of $$<HTMLButtonElement>('button.show-map')) initMap(button, words);
for (const section of $$('section[data-module="panoramas"]')) initPanoramas(section, words);
const inquiry = $('form[data-inquiry-form]')?.closest<HTMLElement>('[id]');
if (inquiry) initForm(inquiry, words);
initResize();
