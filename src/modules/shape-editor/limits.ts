/**
 * The largest SVG file read (characters): a traced render with hundreds of detailed homes is far smaller.
 * Its own module so the island checks a file's size without bundling the SVG reader (lazy-loaded).
 */
export const MAX_SVG_LENGTH = 10 * 1024 * 1024;
