import { initLightbox } from '../components/gallery/client.js';
import { initPlaceholders } from '../components/image/client.js';
import { initForm } from '../components/inquiry-form/client.js';
import { initMap } from '../components/map/client.js';
import { NAVIGATOR, type Navigator, initNavigator } from '../components/navigator/client.js';
import { initNested } from '../components/navigator/nested.client.js';
import { initZoom } from '../components/navigator/zoom.client.js';
import { initPanoramas } from '../components/panoramas/client.js';
import { initFilters, initSelection } from '../components/sidebar/client.js';
import { initFavourites } from '../components/sidebar/favourites.client.js';
// The public page's islands: each enhances server-rendered HTML that already works without JavaScript
// (STYLE.md "The public page"). Loaded as `<script type="module" src="/assets/page/page.<hash>.js">`.
import { $, $$ } from './dom.js';
import { initResize } from './resize.js';
import { pageWords } from './words.js';

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
