import type { Apartment } from '../../../apartments/schemas.js';
import type { Navigator, NavigatorImage } from '../../../navigators/schemas.js';
import { homeHref, shownPrice } from '../../render/format.js';
import { shownIndex } from '../../shared/frames.js';
import { navigatorAnchor, searchWithView, viewClasses } from '../../shared/nested.js';
import type { Translate } from '../../shared/words.js';
import { ResponsiveImage, VIEWER_SIZES } from '../image/render.js';

/** The frame shown first (shared/frames.ts: the same rule the browser uses). */
export function startingFrame(navigator: Navigator): NavigatorImage | undefined {
  return shownFrame(navigator, null);
}

/** The frame a page shows first: the one its address names (`?frame=`), else the starting one (shared/frames.ts). */
export function shownFrame(navigator: Navigator, frameId: string | null | undefined): NavigatorImage | undefined {
  return navigator.images[shownIndex(navigator.images, navigator.options.startingAngle, frameId)];
}

/** The angle of the frame that faces north (options.northFrameIndex, frames by angle) with compassEnabled, else null. */
function compassNorth(navigator: Navigator): number | null {
  if (!navigator.options.compassEnabled || navigator.images.length === 0) return null;
  const byAngle = navigator.images.map((f) => f.angle).sort((a, b) => a - b);
  return byAngle[Math.min(navigator.options.northFrameIndex ?? 0, byAngle.length - 1)]!;
}

/** A compass whose needle points north in the frame shown (the script turns it with the frames). */
function Compass(props: { rotation: number; label: string }) {
  return (
    <svg class="compass" viewBox="0 0 40 40" width="44" height="44" role="img" aria-label={props.label}>
      <circle cx="20" cy="20" r="18" class="compass-ring" />
      <g class="compass-needle" transform={`rotate(${props.rotation} 20 20)`}>
        <path d="M20 10 L24 20 L16 20 Z" class="compass-north" />
        <path d="M20 30 L24 20 L16 20 Z" class="compass-south" />
        <text x="20" y="8.5" text-anchor="middle" class="compass-n">
          N
        </text>
      </g>
    </svg>
  );
}

export interface ShapeContext {
  apartments: Map<string, Apartment>;
  nested: Map<string, Navigator>;
  locale: string;
  t: Translate;
  /** The page's path when homes have their own pages (the list is shown), else null: shapes only colour the render. */
  homesPath: string | null;
}

type FrameShape = NavigatorImage['shapes'][number];

/** A building's shape: a link to its nested navigator (a fragment of the page), else a plain shape. */
function BuildingShape(props: { shape: FrameShape; ctx: ShapeContext }) {
  const { shape, ctx } = props;
  const target = ctx.nested.get(shape.referenceId);
  if (!target) return <path class="shape-building" d={shape.shape} data-building-id={shape.referenceId} />;
  return (
    <a
      href={`#${navigatorAnchor(target.id)}`}
      class="shape-link"
      data-building-id={shape.referenceId}
      data-navigator-id={target.id}
      aria-label={shape.name ?? ctx.t('building')}
    >
      <path class="shape-building" d={shape.shape} />
    </a>
  );
}

/** The order the statuses are drawn in (the later on top): the homes a buyer can have last. */
const DRAWN = ['HIDDEN', 'SOLD', 'BOOKED', 'ACTIVE'] as const;

/**
 * A frame's shapes, the smallest markup that keeps every home a link with one accessible name (the
 * issue's 2,000-home budget): homes grouped by status (`g.status-{status}`: the colour is inherited), each
 * `a[href="/p/{slug}/homes/{id}"][aria-label="{name}, {status}, {price}"] > path`. The id is written once
 * (in the link); the script adds `.shape-link[data-apartment-id][data-status]` from the link and the group
 * (client/navigator.ts `hydrateShapes`). A HIDDEN home is a bare path (no link, name or price).
 */
function Shapes(props: { shapes: FrameShape[]; ctx: ShapeContext }) {
  const { ctx } = props;
  const { t } = ctx;
  const byStatus = new Map<string, preact.JSX.Element[]>();
  const buildings: preact.JSX.Element[] = [];
  for (const shape of props.shapes) {
    if (shape.referenceType === 'building') {
      buildings.push(<BuildingShape key={shape.id} shape={shape} ctx={ctx} />);
      continue;
    }
    const apartment = ctx.apartments.get(shape.referenceId);
    if (!apartment) continue;
    let node: preact.JSX.Element;
    if (apartment.status === 'HIDDEN') node = <path key={shape.id} d={shape.shape} />;
    else {
      const price = shownPrice(apartment, ctx.locale);
      const label = `${apartment.name}, ${t(apartment.status as 'ACTIVE')}${price ? `, ${price}` : ''}`;
      node = ctx.homesPath ? (
        <a key={shape.id} href={homeHref(ctx.homesPath, apartment.id)} aria-label={label}>
          <path d={shape.shape} />
        </a>
      ) : (
        // Shapes only colour the render (no list, no homes' pages): named for a pointer's tooltip, not links.
        <path key={shape.id} d={shape.shape} data-apartment-id={apartment.id}>
          <title>{label}</title>
        </path>
      );
    }
    const group = byStatus.get(apartment.status) ?? [];
    group.push(node);
    byStatus.set(apartment.status, group);
  }
  return (
    <>
      {buildings}
      {DRAWN.filter((status) => byStatus.has(status)).map((status) => (
        <g key={status} class={`status-${status.toLowerCase()}`}>
          {byStatus.get(status)}
        </g>
      ))}
    </>
  );
}

/**
 * A frame's overlay: the shapes in the render's pixels, drawn at its aspect (never stretched). Only the
 * frame the page shows first carries its shapes; the others are empty (`data-pending`: the script fetches
 * `?part=frame&frame={id}`, this same element with its shapes, when the frame is shown). The overlay keeps
 * its size either way (absolutely placed over the image), so nothing moves when the shapes arrive.
 */
export function FrameOverlay(props: { navigator: Navigator; frame: NavigatorImage; ctx: ShapeContext; withShapes: boolean }) {
  const { overlayWidth, overlayHeight } = props.navigator.options;
  const { frame } = props;
  const pending = !props.withShapes && frame.shapes.length > 0;
  return (
    <svg class="overlay" viewBox={`0 0 ${overlayWidth} ${overlayHeight}`} data-pending={pending ? '' : undefined}>
      <title>{`${frame.name}: ${props.ctx.t('homes')}`}</title>
      {props.withShapes ? <Shapes shapes={frame.shapes} ctx={props.ctx} /> : null}
    </svg>
  );
}

/** The context the shapes of `navigator` are drawn with. */
export function shapeContext(navigator: Navigator, apartments: Map<string, Apartment>, locale: string, t: Translate, homesPath: string | null): ShapeContext {
  return { apartments, nested: new Map(navigator.nested.map((n) => [n.referenceId, n])), locale, t, homesPath };
}

/** The frame `frameId` of `navigator` or of one nested in it, with the navigator that holds it. */
export function findFrame(navigator: Navigator, frameId: string): { navigator: Navigator; frame: NavigatorImage } | undefined {
  const frame = navigator.images.find((f) => f.id === frameId);
  if (frame) return { navigator, frame };
  for (const child of navigator.nested) {
    const found = findFrame(child, frameId);
    if (found) return found;
  }
  return undefined;
}

function Frame(props: {
  navigator: Navigator;
  frame: NavigatorImage;
  start: boolean;
  shapes: boolean;
  eager: boolean;
  ctx: ShapeContext;
  north: number | null;
}) {
  const { navigator, frame } = props;
  return (
    // Without JavaScript every frame but the starting one is shown only as the fragment's :target (its "View" link).
    <figure
      class={props.start ? 'frame is-start' : 'frame'}
      id={`frame-${frame.id}`}
      data-frame-id={frame.id}
      data-angle={frame.angle}
      data-marketing-stop={frame.isMarketingStop ? 'true' : undefined}
      data-north={props.north ?? undefined}
    >
      <div class="frame-stage">
        <ResponsiveImage asset={frame.asset} alt={frame.name} sizes={VIEWER_SIZES} eager={props.eager} class="frame-image" />
        <FrameOverlay navigator={navigator} frame={frame} ctx={props.ctx} withShapes={props.shapes} />
      </div>
      <figcaption>
        {frame.name}
        {frame.highlightLabel ? <span class="highlight"> {frame.highlightLabel}</span> : null}
      </figcaption>
    </figure>
  );
}

/**
 * One navigator: its frames (the starting one shown), under them the view controls (Previous and Next
 * for the script, a "View" link per frame that works without it), then its nested navigators.
 */
export function NavigatorSection(props: {
  navigator: Navigator;
  apartments: Map<string, Apartment>;
  locale: string;
  t: Translate;
  homesPath: string | null;
  nestedLevel?: number;
  heading: string;
  label: string;
  /** The navigator's name, for its nested ones' "Back to <name>". */
  name: string;
  /** The navigator this one is nested in: a nested one starts with a way back to it. */
  parent?: { id: string; name: string } | undefined;
  /** A button that hides and shows the sidebar (the top navigator, unless disableHidingSidebar). */
  sidebarToggle?: boolean;
  /**
   * The navigator the address shows (`?view=`, shared/nested.ts `viewChain`: the top one first; null: the top
   * one) and where a "Back to" link goes (`backHref`).
   */
  view: { chain: string[] | null; back: (parentId: string, parentIsTop: boolean) => string };
  /** The frame the address names (`?frame={id}`): shown first, with its shapes, instead of the starting one. */
  frameId?: string | null | undefined;
  /** The address's other fields (the filter), kept by the "View" links: `?status=…`, or ''. */
  query?: string | undefined;
  /** Every frame with its shapes (a preview: rendered per request, its parts are not published). */
  allShapes?: boolean | undefined;
}) {
  const { navigator, t } = props;
  const { options } = navigator;
  const north = compassNorth(navigator);
  const many = navigator.images.length > 1;
  const first = shownFrame(navigator, props.frameId);
  const stops = navigator.images.filter((f) => f.isMarketingStop);
  const level = props.nestedLevel ?? 0;
  const { chain } = props.view;
  // The render's first image loads at once: the shown navigator's (the top one's unless `?view=` names another).
  const shown = chain ? chain[chain.length - 1] === navigator.id : level === 0;
  const classes = ['navigator', level === 0 ? '' : 'nested', viewClasses(chain, navigator.id)].filter(Boolean).join(' ');
  const ctx = shapeContext(navigator, props.apartments, props.locale, t, props.homesPath);
  // Each "View" link is a page address of its own (that frame shown, with its shapes): it works without
  // JavaScript. A nested navigator's links keep it shown (`view`), as its "Back to" link keeps its parent.
  const search = level === 0 ? (props.query ?? '') : searchWithView(props.query ?? '', navigator.id);
  const viewHref = (frameId: string) => `${search ? `${search}&` : '?'}frame=${frameId}#frame-${frameId}`;
  return (
    <section
      class={classes}
      id={navigatorAnchor(navigator.id)}
      data-navigator-id={navigator.id}
      data-parent-id={props.parent?.id}
      data-starting-angle={navigator.options.startingAngle ?? 0}
      data-loopable={options.isLoopable ? 'true' : undefined}
      data-free-rotate={options.canFreelyRotate ? 'true' : undefined}
      data-mirrored={options.mirroredRotationCameraMovement ? 'true' : undefined}
      data-module="navigator"
      aria-label={props.label}
    >
      {/* The way back: a link to the page showing the parent, at its section; with the script it shows the parent in place. */}
      {props.parent ? (
        <a class="nested-back" href={props.view.back(props.parent.id, level === 1)} data-back={props.parent.id}>
          <span aria-hidden="true">‹ </span>
          {t('backTo', { name: props.parent.name })}
        </a>
      ) : null}
      <h2 class={level === 0 ? 'visually-hidden' : undefined}>{props.heading}</h2>
      {navigator.images.length === 0 ? <p>{t('noViews')}</p> : null}
      <div class="frames">
        {navigator.images.map((frame) => (
          <Frame
            key={frame.id}
            navigator={navigator}
            frame={frame}
            start={frame === first}
            shapes={frame === first || props.allShapes === true}
            eager={shown && frame === first}
            ctx={ctx}
            north={north === null ? null : north - frame.angle}
          />
        ))}
      </div>
      {navigator.images.length > 0 ? (
        <div class="view-controls">
          {north !== null && first ? <Compass rotation={north - first.angle} label={t('compass')} /> : null}
          {many ? (
            <span class="rotate">
              <button type="button" data-rotate="-1" aria-label={t('previousView')}>
                ‹
              </button>
              <button type="button" data-rotate="1" aria-label={t('nextView')}>
                ›
              </button>
            </span>
          ) : null}
          {/* Zoom on the render (client/zoom.ts; double-tap too): unseen, its place kept, without the script. */}
          <span class="zoom">
            <button type="button" data-zoom="1" aria-label={t('zoomIn')}>
              +
            </button>
            <button type="button" data-zoom="-1" aria-label={t('zoomOut')} disabled>
              −
            </button>
          </span>
          {many ? (
            <nav class="angles" aria-label={t('views')}>
              <ul>
                {navigator.images.map((frame) => (
                  <li key={frame.id}>
                    <a href={viewHref(frame.id)} data-angle={frame.angle} class={frame.isMarketingStop ? 'stop' : undefined}>
                      {frame.isMarketingStop ? `${frame.name} (${frame.highlightLabel ?? t('featuredView')})` : frame.name}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          {props.sidebarToggle ? (
            <button type="button" class="sidebar-toggle" aria-controls="apartments" aria-expanded="true" data-hide={t('hideList')} data-show={t('showList')}>
              {t('hideList')}
            </button>
          ) : null}
        </div>
      ) : null}
      {stops.length > 0 ? <p class="stops-note">{t('featuredViews', { count: stops.length })}</p> : null}
      {navigator.nested.map((child) => {
        const name = child.options.navigatorName || child.seoTitle || t('building');
        return (
          <NavigatorSection
            key={child.id}
            navigator={child}
            apartments={props.apartments}
            locale={props.locale}
            t={t}
            homesPath={props.homesPath}
            nestedLevel={level + 1}
            heading={name}
            label={name}
            name={name}
            parent={{ id: navigator.id, name: props.name }}
            view={props.view}
            frameId={props.frameId}
            query={props.query}
            allShapes={props.allShapes}
          />
        );
      })}
    </section>
  );
}
