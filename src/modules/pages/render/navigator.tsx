import type { Apartment } from '../../apartments/schemas.js';
import type { Navigator, NavigatorImage } from '../../navigators/schemas.js';
import { shownPrice, statusLabel } from './format.js';
import { ResponsiveImage, WIDE_SIZES } from './image.js';

/** The frame shown first: the one at startingAngle, else the nearest angle above it, else the first. */
export function startingFrame(navigator: Navigator): NavigatorImage | undefined {
  const start = navigator.options.startingAngle ?? 0;
  return navigator.images.find((f) => f.angle === start) ?? navigator.images.find((f) => f.angle >= start) ?? navigator.images[0];
}

function Shape(props: {
  shape: NavigatorImage['shapes'][number];
  apartments: Map<string, Apartment>;
  nested: Map<string, Navigator>;
  locale: string;
}) {
  const { shape } = props;
  if (shape.referenceType === 'building') {
    const target = props.nested.get(shape.referenceId);
    const label = shape.name ?? 'Building';
    if (!target) return <path class="shape shape-building" d={shape.shape} data-building-id={shape.referenceId} />;
    return (
      <a href={`#navigator-${target.id}`} class="shape-link" data-building-id={shape.referenceId} data-navigator-id={target.id} aria-label={label}>
        <path class="shape shape-building" d={shape.shape} />
      </a>
    );
  }
  const apartment = props.apartments.get(shape.referenceId);
  if (!apartment) return null;
  const status = apartment.status.toLowerCase();
  // HIDDEN: a shape in the hidden colours, with no link, name, price or details.
  if (apartment.status === 'HIDDEN') return <path class="shape status-hidden" d={shape.shape} data-status="hidden" />;
  const price = shownPrice(apartment, props.locale);
  const label = `${apartment.name}, ${statusLabel(apartment.status)}${price ? `, ${price}` : ''}`;
  return (
    <a href={`#apartment-${apartment.id}`} class="shape-link" data-apartment-id={apartment.id} data-status={status} aria-label={label}>
      <title>{label}</title>
      <path class={`shape status-${status}`} d={shape.shape} />
    </a>
  );
}

function Frame(props: { navigator: Navigator; frame: NavigatorImage; shown: boolean; eager: boolean; apartments: Map<string, Apartment>; locale: string }) {
  const { navigator, frame } = props;
  const { overlayWidth, overlayHeight } = navigator.options;
  const nested = new Map(navigator.nested.map((n) => [n.referenceId, n]));
  return (
    <figure
      class="frame"
      id={`frame-${frame.id}`}
      data-frame-id={frame.id}
      data-angle={frame.angle}
      data-marketing-stop={frame.isMarketingStop ? 'true' : undefined}
      hidden={!props.shown}
    >
      <div class="frame-stage">
        <ResponsiveImage asset={frame.asset} alt={frame.name} sizes={WIDE_SIZES} eager={props.eager} class="frame-image" />
        <svg class="overlay" viewBox={`0 0 ${overlayWidth} ${overlayHeight}`} preserveAspectRatio="none">
          <title>{`${frame.name}: homes`}</title>
          {frame.shapes.map((shape) => (
            <Shape key={shape.id} shape={shape} apartments={props.apartments} nested={nested} locale={props.locale} />
          ))}
        </svg>
      </div>
      <figcaption>
        {frame.name}
        {frame.highlightLabel ? <span class="highlight"> {frame.highlightLabel}</span> : null}
      </figcaption>
    </figure>
  );
}

/** One navigator: its frames (the starting one shown), the marketing stops as links, then its nested navigators. */
export function NavigatorSection(props: { navigator: Navigator; apartments: Map<string, Apartment>; locale: string; nestedLevel?: number; heading: string }) {
  const { navigator } = props;
  const first = startingFrame(navigator);
  const stops = navigator.images.filter((f) => f.isMarketingStop);
  const level = props.nestedLevel ?? 0;
  return (
    <section
      class="navigator"
      id={`navigator-${navigator.id}`}
      data-navigator-id={navigator.id}
      data-starting-angle={navigator.options.startingAngle ?? 0}
      data-loopable={navigator.options.isLoopable ? 'true' : undefined}
      aria-labelledby={`navigator-${navigator.id}-title`}
    >
      <h2 id={`navigator-${navigator.id}-title`}>{props.heading}</h2>
      {navigator.images.length === 0 ? <p>No views yet.</p> : null}
      {navigator.images.map((frame) => (
        <Frame
          key={frame.id}
          navigator={navigator}
          frame={frame}
          shown={frame === first}
          eager={level === 0 && frame === first}
          apartments={props.apartments}
          locale={props.locale}
        />
      ))}
      {navigator.images.length > 1 ? (
        <nav class="angles" aria-label="Views">
          <ul>
            {navigator.images.map((frame) => (
              <li key={frame.id}>
                <a href={`#frame-${frame.id}`} data-angle={frame.angle} class={frame.isMarketingStop ? 'stop' : undefined}>
                  {frame.isMarketingStop ? `${frame.name} (${frame.highlightLabel ?? 'featured view'})` : frame.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {stops.length > 0 ? <p class="stops-note">{`${stops.length} featured ${stops.length === 1 ? 'view' : 'views'}`}</p> : null}
      {navigator.nested.map((child) => (
        <NavigatorSection
          key={child.id}
          navigator={child}
          apartments={props.apartments}
          locale={props.locale}
          nestedLevel={level + 1}
          heading={child.options.navigatorName || child.seoTitle || 'Building'}
        />
      ))}
    </section>
  );
}
