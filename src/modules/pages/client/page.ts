// The public page's islands: each enhances server-rendered HTML that already works without JavaScript
// (STYLE.md "The public page"). Loaded as `<script type="module" src="/assets/page/page.<hash>.js">`.
// Each island lives with its server render in components/<name>/ and starts on its hook, the element the
// server marked `data-module="<name>"` (a navigator and each nested one: `section[data-module="navigator"]`).
import { initLightbox } from '../components/gallery/client.js';
import { initPlaceholders } from '../components/image/client.js';
import { initForm } from '../components/inquiry-form/client.js';
import { initMap } from '../components/map/client.js';
import { type Navigator, initNavigator } from '../components/navigator/client.js';
import { initNested } from '../components/navigator/nested.client.js';
import { initZoom } from '../components/navigator/zoom.client.js';
import { initPanoramas } from '../components/panoramas/client.js';
import { initFilters, initSelection } from '../components/sidebar/client.js';
import { initFavourites } from '../components/sidebar/favourites.client.js';
import { $$ } from './dom.js';
import { initResize } from './resize.js';
import { pageWords } from './words.js';

/** The elements that start the island `name` (`[data-module="name"]`), in document order. */
const modules = <T extends HTMLElement = HTMLElement>(name: string) => $$<T>(`[data-module="${name}"]`);

// Scopes the states only the script makes (GOV.UK's `govuk-frontend-supported`): without it everything shows.
document.documentElement.classList.add('js');
if (window.parent !== window) document.documentElement.classList.add('in-embed');
const words = pageWords();
initPlaceholders();
const navigators = modules('navigator')
  .map((root) => initNavigator(root, words))
  .filter((n): n is Navigator => n !== null);
for (const navigator of navigators) initZoom(navigator.root);
if (modules('homes').length > 0) initSelection(navigators, words);
initNested();
const [filters] = modules<HTMLFormElement>('home-filters');
initFavourites(filters ? initFilters(filters, words) : () => undefined, words);
for (const gallery of modules('gallery')) initLightbox(gallery, words);
for (const button of modules<HTMLButtonElement>('map')) initMap(button, words);
for (const section of modules('panoramas')) initPanoramas(section, words);
for (const section of modules('inquiry-form')) initForm(section, words);
initResize();
