// The public page's islands: each enhances server-rendered HTML that already works without JavaScript
// (STYLE.md "The public page"). Loaded as `<script type="module" src="/assets/page/page.<hash>.js">`.
import { $, $$ } from './dom.js';
import { initForm } from './form.js';
import { initLightbox } from './lightbox.js';
import { initFilters, initSelection } from './list.js';
import { initMap } from './map.js';
import { type Navigator, initNavigator } from './navigator.js';
import { initResize } from './resize.js';

document.documentElement.classList.add('js');
const navigators = $$('[data-navigator]')
  .map(initNavigator)
  .filter((n): n is Navigator => n !== null);
initSelection(navigators);
for (const form of $$<HTMLFormElement>('form[data-apartment-filters]')) initFilters(form);
for (const gallery of $$('[data-gallery]')) initLightbox(gallery);
for (const map of $$('[data-map]')) initMap(map);
const inquiry = $('[data-inquiry]');
if (inquiry) initForm(inquiry);
initResize();
