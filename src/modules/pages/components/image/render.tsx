import type { Asset } from '../../render/types.js';

/** Widths the page lays images out at: the navigator fills the content column (at most 1200 px). */
export const WIDE_SIZES = '(min-width: 1240px) 1200px, 100vw';
/** The render beside the sidebar from 1024 px (about 70 % of the width), the full width below. */
export const VIEWER_SIZES = '(min-width: 1240px) 900px, (min-width: 1024px) 70vw, 100vw';
export const THUMB_SIZES = '(min-width: 700px) 320px, 50vw';

/**
 * An asset as a responsive image: its WebP variants in srcset, the intrinsic size (no layout shift),
 * the ThumbHash in data-placeholder (the browser code paints it; CSS gives the box a neutral colour).
 */
export function ResponsiveImage(props: { asset: Asset; alt: string; sizes: string; eager?: boolean; hidden?: boolean; class?: string }) {
  const { asset } = props;
  const variants = asset.variants ?? [];
  const largest = variants[variants.length - 1];
  return (
    <img
      class={props.class}
      src={largest?.src ?? asset.src}
      srcset={variants.length > 0 ? variants.map((v) => `${v.src} ${v.width}w`).join(', ') : undefined}
      sizes={variants.length > 0 ? props.sizes : undefined}
      width={asset.width ?? undefined}
      height={asset.height ?? undefined}
      alt={props.alt}
      loading={props.eager ? 'eager' : 'lazy'}
      fetchpriority={props.eager ? 'high' : undefined}
      decoding="async"
      data-placeholder={asset.placeholder ?? undefined}
    />
  );
}
