import { fileSize, fileType } from '../../render/format.js';
import type { Asset } from '../../render/types.js';

/** A list of files to download (the investment's sections, the downloads' groups): each its label, type and size. */
export function FileList(props: { files: Array<{ id: string; label?: string | null | undefined; asset: Asset }>; locale: string }) {
  return (
    <ul class="files">
      {props.files.map((file) => (
        <li key={file.id}>
          <a href={file.asset.src} download>
            {file.label || file.asset.name}
          </a>{' '}
          <span class="meta">
            ({fileType(file.asset.mimeType)}, {fileSize(file.asset.sizeBytes, props.locale)})
          </span>
        </li>
      ))}
    </ul>
  );
}
