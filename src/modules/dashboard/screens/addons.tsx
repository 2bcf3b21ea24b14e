import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ComponentChildren } from 'preact';
import { AppError } from '../../../errors.js';
import { isUuid } from '../../../ids.js';
import type { DownloadsDocument } from '../../addons/downloads/schemas.js';
import { CreateDownloadsGroup, CreateDownloadsItem, UpdateDownloadsGroup, UpdateDownloadsItem } from '../../addons/downloads/schemas.js';
import type { GalleryDocument } from '../../addons/gallery/schemas.js';
import { CreateGalleryItem, CreateGallerySection, UpdateGalleryItem, UpdateGallerySection } from '../../addons/gallery/schemas.js';
import type { InvestmentDocument } from '../../addons/investment/schemas.js';
import { CreateInvestmentFile, CreateInvestmentSection, UpdateInvestmentFile, UpdateInvestmentSection } from '../../addons/investment/schemas.js';
import { POI_CATEGORIES, TILE_STYLES } from '../../addons/map/geo.js';
import type { MapDocument } from '../../addons/map/schemas.js';
import { CreatePoiBody, PutMapBody, UpdatePoiBody } from '../../addons/map/schemas.js';
import type { AddonKind } from '../../addons/state.js';
import type { Asset } from '../../assets/schemas.js';
import type { Estate } from '../../estates/schemas.js';
import { islandScript } from '../assets.js';
import { ErrorSummary, type Errors, Field, FieldError, Labelled, Notice, PostForm, Problem } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Shell } from '../render/shell.js';
import { type OrgContext, asUser, hasRole, requireOrg } from '../session.js';
import { thumbnailOf } from './assets.js';
import { STALE } from './estates.js';
import { formOf, plain, refusal, text } from './form-body.js';
import { checkWith } from './validate.js';

const KINDS: Record<AddonKind, { label: string; about: string }> = {
  investment: { label: 'Investment', about: 'Sections of text about the project (HTML: paragraphs, headings, lists, links, tables) with files under each.' },
  gallery: { label: 'Gallery', about: 'Images and videos, ungrouped or in sections.' },
  map: { label: 'Map', about: 'The project’s pin and the places around it, by category.' },
  downloads: { label: 'Downloads', about: 'Files to download (brochures, price lists, plans), in groups.' },
};
const KIND_IDS = Object.keys(KINDS) as AddonKind[];

const DONE: Record<string, string> = {
  enabled: 'The add-on is on: the public page shows it.',
  disabled: 'The add-on is off: the public page no longer shows it.',
  saved: 'Saved.',
  added: 'Added.',
  moved: 'Moved.',
  removed: 'Removed.',
};

/** Each form's fields in the dashboard's words (messages of checkWith, by field). */
const MESSAGES: Record<string, string> = {
  title: 'Enter a title (at most 200 characters).',
  description: 'The text is too long.',
  caption: 'The caption is too long (at most 200 characters).',
  label: 'The label is too long (at most 200 characters).',
  assetId: 'Choose a file from the list.',
  sectionId: 'Choose a section from the list.',
  category: 'Choose a category from the list.',
  lat: 'Enter a latitude between -90 and 90, such as 52.3702.',
  lng: 'Enter a longitude between -180 and 180, such as 4.8952.',
  centerLat: 'Enter a latitude between -90 and 90, such as 52.3702.',
  centerLng: 'Enter a longitude between -180 and 180, such as 4.8952.',
  defaultZoom: 'Enter a zoom level from 0 (the world) to 22 (a building).',
  tileStyle: 'Choose a map style from the list.',
  customDistanceLabel: 'The distance text is too long (at most 200 characters).',
};

type Doc = InvestmentDocument | GalleryDocument | MapDocument | DownloadsDocument;

/** What a screen shows again after a refused form: its values and errors, keyed `<form>.<field>`. */
interface Again {
  errors: Errors;
  values: Record<string, string>;
  problem?: string | undefined;
}
const none: Again = { errors: {}, values: {} };

// ---------------------------------------------------------------------------------------------- fields

/** A labelled input whose id is unique on the page (`<form>-<name>`), its error next to it. */
function Input(props: {
  form: string;
  name: string;
  label: string;
  again: Again;
  value?: string | null | undefined;
  hint?: string;
  maxLength?: number;
  inputMode?: 'decimal' | 'numeric';
}) {
  const key = `${props.form}.${props.name}`;
  return (
    <Field
      id={`${props.form}-${props.name}`}
      name={props.name}
      label={props.label}
      error={props.again.errors[key]}
      value={props.again.values[key] ?? props.value ?? ''}
      hint={props.hint}
      maxLength={props.maxLength}
      inputMode={props.inputMode}
    />
  );
}

function TextArea(props: { form: string; name: string; label: string; again: Again; value?: string | null | undefined; hint?: string; rows?: number }) {
  const id = `${props.form}-${props.name}`;
  const value = props.again.values[`${props.form}.${props.name}`] ?? props.value ?? '';
  return (
    <Labelled id={id} label={props.label} hint={props.hint} error={props.again.errors[`${props.form}.${props.name}`]}>
      {(a11y) => (
        <textarea id={id} name={props.name} rows={props.rows ?? 4} {...a11y}>
          {value}
        </textarea>
      )}
    </Labelled>
  );
}

function Choice(props: { form: string; name: string; label: string; again: Again; options: Array<[string, string]>; value?: string | null | undefined }) {
  const id = `${props.form}-${props.name}`;
  const error = props.again.errors[`${props.form}.${props.name}`];
  const value = props.again.values[`${props.form}.${props.name}`] ?? props.value ?? '';
  return (
    <div class={error ? 'field field-error' : 'field'}>
      <label for={id}>{props.label}</label>
      <FieldError id={id} error={error} />
      <select id={id} name={props.name} aria-describedby={error ? `${id}-error` : undefined} aria-invalid={error ? 'true' : undefined}>
        {props.options.map(([v, label]) => (
          <option key={v} value={v} selected={v === value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Checkboxes of the organization's files to pick from, with thumbnails. */
function AssetPicker(props: { form: string; legend: string; assets: Asset[]; again: Again; single?: boolean }) {
  const error = props.again.errors[`${props.form}.assetId`];
  const id = `${props.form}-assetId`;
  if (props.assets.length === 0) return <p class="muted">No suitable files yet: upload them on the Assets screen first.</p>;
  return (
    <fieldset class={error ? 'field field-error picker' : 'field picker'} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{props.legend}</legend>
      <FieldError id={id} error={error} />
      <ul class="plain picker-list">
        {props.assets.map((asset, i) => {
          const thumb = thumbnailOf(asset);
          return (
            <li key={asset.id}>
              <input type={props.single ? 'radio' : 'checkbox'} id={`${id}-${i}`} name="assetId" value={asset.id} />{' '}
              <label for={`${id}-${i}`}>
                {thumb ? <img class="thumb" src={thumb} alt="" width={80} height={60} loading="lazy" /> : null} {asset.name}
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

// ---------------------------------------------------------------------------------------- ordering

/** A sibling list: Move up / Move down are plain forms; the island adds dragging (data-order-*). */
function Ordered(props: { ctx: OrgContext; action: string; set: string; label: string; children: ComponentChildren; editable: boolean }) {
  if (Array.isArray(props.children) && props.children.length === 0) return null;
  return (
    <ol
      class="plain ordered"
      aria-label={props.label}
      data-order-list={props.editable ? '' : undefined}
      data-order-set={props.set}
      data-order-action={`${props.action}/move`}
      data-csrf={props.editable ? props.ctx.session.csrf : undefined}
    >
      {props.children}
    </ol>
  );
}

function RowActions(props: { ctx: OrgContext; action: string; set: string; id: string; name: string; index: number; count: number }) {
  const { ctx } = props;
  return (
    <div class="actions">
      <PostForm action={`${props.action}/move`} csrf={ctx.session.csrf} class="inline">
        <input type="hidden" name="set" value={props.set} />
        <input type="hidden" name="id" value={props.id} />
        <button type="submit" name="direction" value="up" class="secondary" disabled={props.index === 0}>
          Move up<span class="visually-hidden"> {props.name}</span>
        </button>{' '}
        <button type="submit" name="direction" value="down" class="secondary" disabled={props.index === props.count - 1}>
          Move down<span class="visually-hidden"> {props.name}</span>
        </button>
      </PostForm>{' '}
      <PostForm action={`${props.action}/remove`} csrf={ctx.session.csrf} class="inline">
        <input type="hidden" name="set" value={props.set} />
        <input type="hidden" name="id" value={props.id} />
        <button type="submit" class="danger">
          Remove<span class="visually-hidden"> {props.name}</span>
        </button>
      </PostForm>
    </div>
  );
}

// ------------------------------------------------------------------------------------------- screens

function EstatePicker(props: { ctx: OrgContext; estates: Array<{ estate: Estate; enabled: Record<AddonKind, boolean> }> }) {
  const { ctx } = props;
  return (
    <Shell ctx={ctx} title="Add-ons" current="addons">
      <p class="muted">Each estate’s page can show four add-ons. Turn them on and edit them per estate.</p>
      {props.estates.length === 0 ? (
        <p>No estates yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Add-ons per estate</caption>
            <thead>
              <tr>
                <th scope="col">Estate</th>
                {KIND_IDS.map((k) => (
                  <th scope="col" key={k}>
                    {KINDS[k].label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.estates.map(({ estate, enabled }) => (
                <tr key={estate.id}>
                  <th scope="row">
                    <a href={`${ctx.base}/addons/${estate.id}`}>{estate.name}</a>
                  </th>
                  {KIND_IDS.map((k) => (
                    <td key={k}>
                      <a href={`${ctx.base}/addons/${estate.id}/${k}`}>
                        {enabled[k] ? 'On' : 'Off'}
                        <span class="visually-hidden">{` (edit the ${KINDS[k].label.toLowerCase()} of ${estate.name})`}</span>
                      </a>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Shell>
  );
}

function EnableForm(props: { ctx: OrgContext; action: string; kind: AddonKind; enabled: boolean; editable: boolean }) {
  const label = KINDS[props.kind].label.toLowerCase();
  return (
    <div class="addon-state">
      <p>
        The {label} is <strong>{props.enabled ? 'on' : 'off'}</strong>
        {props.enabled ? ': the public page shows it.' : ': the public page does not show it.'}
      </p>
      {props.editable ? (
        <PostForm action={`${props.action}/enable`} csrf={props.ctx.session.csrf} class="inline">
          <input type="hidden" name="enabled" value={props.enabled ? 'false' : 'true'} />
          <button type="submit" class={props.enabled ? 'secondary' : undefined}>
            {props.enabled ? `Turn off the ${label}` : `Turn on the ${label}`}
          </button>
        </PostForm>
      ) : null}
    </div>
  );
}

function Overview(props: { ctx: OrgContext; estate: Estate; docs: Record<AddonKind, Doc>; done?: string | undefined }) {
  const { ctx, estate } = props;
  const base = `${ctx.base}/addons/${estate.id}`;
  return (
    <Shell ctx={ctx} title={`Add-ons of ${estate.name}`} current="addons">
      <p>
        <a href={`${ctx.base}/addons`}>All estates</a>
      </p>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      {KIND_IDS.map((k) => (
        <section key={k} aria-labelledby={`addon-${k}`}>
          <h2 id={`addon-${k}`}>{KINDS[k].label}</h2>
          <p class="muted">{KINDS[k].about}</p>
          <EnableForm ctx={ctx} action={`${base}/${k}`} kind={k} enabled={props.docs[k].enabled} editable={hasRole(ctx, 'editor')} />
          <p>
            <a href={`${base}/${k}`}>
              Edit the {KINDS[k].label.toLowerCase()}
              <span class="visually-hidden"> of {estate.name}</span>
            </a>
          </p>
        </section>
      ))}
    </Shell>
  );
}

interface EditorProps {
  ctx: OrgContext;
  estate: Estate;
  doc: Doc;
  version: number;
  assets: Asset[];
  again: Again;
  done?: string | undefined;
}

function Editor(props: EditorProps & { kind: AddonKind }) {
  const { ctx, estate, kind } = props;
  const action = `${ctx.base}/addons/${estate.id}/${kind}`;
  const editable = hasRole(ctx, 'editor');
  const body =
    kind === 'gallery' ? (
      <GalleryEditor {...props} doc={props.doc as GalleryDocument} action={action} editable={editable} />
    ) : kind === 'downloads' ? (
      <DownloadsEditor {...props} doc={props.doc as DownloadsDocument} action={action} editable={editable} />
    ) : kind === 'investment' ? (
      <InvestmentEditor {...props} doc={props.doc as InvestmentDocument} action={action} editable={editable} />
    ) : (
      <MapEditor {...props} doc={props.doc as MapDocument} action={action} editable={editable} />
    );
  return (
    <Shell ctx={ctx} title={`${KINDS[kind].label} of ${estate.name}`} current="addons">
      <p>
        <a href={`${ctx.base}/addons/${estate.id}`}>All add-ons of {estate.name}</a>
      </p>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <Problem text={props.again.problem} />
      <ErrorSummary errors={props.again.errors} labels={{}} />
      <EnableForm ctx={ctx} action={action} kind={kind} enabled={props.doc.enabled} editable={editable} />
      {body}
      {editable ? <script src={islandScript().href} defer /> : null}
    </Shell>
  );
}

type Sub<D> = EditorProps & { doc: D; action: string; editable: boolean };

const Version = (props: { version: number }) => <input type="hidden" name="version" value={String(props.version)} />;

function GalleryItems(props: Sub<GalleryDocument> & { set: string; items: GalleryDocument['items']; sections: GalleryDocument['sections']; label: string }) {
  const { ctx, again } = props;
  if (props.items.length === 0) return <p class="muted">No images here yet.</p>;
  return (
    <Ordered ctx={ctx} action={props.action} set={props.set} label={props.label} editable={props.editable}>
      {props.items.map((item, i) => {
        const thumb = thumbnailOf(item.asset);
        const form = `item-${item.id}`;
        return (
          <li key={item.id} data-order-id={item.id} class="ordered-item">
            <p class="item-head">
              {thumb ? <img class="thumb" src={thumb} alt="" width={80} height={60} loading="lazy" /> : null} <strong>{item.asset.name}</strong>
              {item.caption ? <span> · {item.caption}</span> : null}
            </p>
            {props.editable ? (
              <>
                <PostForm action={`${props.action}/save`} csrf={ctx.session.csrf} class="item-edit" label={`Edit ${item.asset.name}`}>
                  <input type="hidden" name="what" value="item" />
                  <input type="hidden" name="id" value={item.id} />
                  <Version version={props.version} />
                  <Input form={form} name="caption" label={`Caption of ${item.asset.name}`} again={again} value={item.caption} maxLength={200} />
                  {props.sections.length > 0 ? (
                    <Choice
                      form={form}
                      name="sectionId"
                      label={`Section of ${item.asset.name}`}
                      again={again}
                      value={item.sectionId ?? ''}
                      options={[['', 'No section'], ...props.sections.map((s): [string, string] => [s.id, s.title])]}
                    />
                  ) : null}
                  <button type="submit" class="secondary">
                    Save<span class="visually-hidden"> {item.asset.name}</span>
                  </button>
                </PostForm>
                <RowActions ctx={ctx} action={props.action} set={props.set} id={item.id} name={item.asset.name} index={i} count={props.items.length} />
              </>
            ) : null}
          </li>
        );
      })}
    </Ordered>
  );
}

function GalleryEditor(props: Sub<GalleryDocument>) {
  const { ctx, doc, again, action, editable } = props;
  const media = props.assets.filter((a) => /^(image|video)\//i.test(a.mimeType));
  return (
    <>
      <h2>Images without a section</h2>
      <GalleryItems {...props} set="items:" items={doc.items} sections={doc.sections} label="Images without a section" />
      <h2>Sections</h2>
      {doc.sections.length === 0 ? <p class="muted">No sections.</p> : null}
      <Ordered ctx={ctx} action={action} set="sections" label="Sections" editable={editable}>
        {doc.sections.map((section, i) => (
          <li key={section.id} data-order-id={section.id} class="ordered-item">
            <h3>{section.title}</h3>
            {editable ? (
              <>
                <SectionForm {...props} form={`section-${section.id}`} id={section.id} title={section.title} description={section.description} />
                <RowActions ctx={ctx} action={action} set="sections" id={section.id} name={section.title} index={i} count={doc.sections.length} />
              </>
            ) : null}
            <GalleryItems {...props} set={`items:${section.id}`} items={section.items} sections={doc.sections} label={`Images of ${section.title}`} />
          </li>
        ))}
      </Ordered>
      {editable ? (
        <>
          <h2>Add images</h2>
          <PostForm action={`${action}/save`} csrf={ctx.session.csrf} label="Add images">
            <input type="hidden" name="what" value="item" />
            <AssetPicker form="new-item" legend="Images and videos" assets={media} again={again} />
            {doc.sections.length > 0 ? (
              <Choice
                form="new-item"
                name="sectionId"
                label="Section"
                again={again}
                options={[['', 'No section'], ...doc.sections.map((s): [string, string] => [s.id, s.title])]}
              />
            ) : null}
            <Input form="new-item" name="caption" label="Caption (optional, for each image added)" again={again} maxLength={200} />
            <button type="submit">Add to the gallery</button>
          </PostForm>
          <h2>Add a section</h2>
          <SectionForm {...props} form="new-section" />
        </>
      ) : null}
    </>
  );
}

/** A gallery or investment section's title and text: a new one, or an existing one (`id`, with the version it was opened at). */
function SectionForm(
  props: Sub<GalleryDocument | InvestmentDocument> & { form: string; id?: string; title?: string; description?: string | null; html?: boolean },
) {
  const { ctx, again } = props;
  return (
    <PostForm action={`${props.action}/save`} csrf={ctx.session.csrf} label={props.id ? `Edit ${props.title}` : 'Add a section'}>
      <input type="hidden" name="what" value="section" />
      {props.id ? (
        <>
          <input type="hidden" name="id" value={props.id} />
          <Version version={props.version} />
        </>
      ) : null}
      <Input form={props.form} name="title" label={props.id ? `Title of ${props.title}` : 'Section title'} again={again} value={props.title} maxLength={200} />
      <TextArea
        form={props.form}
        name="description"
        label={props.id ? `Text of ${props.title}` : 'Section text'}
        again={again}
        value={props.description}
        hint={props.html ? 'HTML: paragraphs, headings, lists, emphasis, links and tables are kept; anything else is removed.' : undefined}
        rows={props.html ? 8 : 3}
      />
      <button type="submit" class={props.id ? 'secondary' : undefined}>
        {props.id ? (
          <>
            Save<span class="visually-hidden"> {props.title}</span>
          </>
        ) : (
          'Add section'
        )}
      </button>
    </PostForm>
  );
}

/** The labelled files of a downloads group or an investment section. */
function FileList(props: {
  sub: Sub<Doc>;
  set: string;
  label: string;
  parentField: string;
  parentId: string;
  items: Array<{ id: string; label: string; asset: { name: string; mimeType: string } }>;
}) {
  const { ctx, again, action, editable } = props.sub;
  if (props.items.length === 0) return <p class="muted">No files here yet.</p>;
  return (
    <Ordered ctx={ctx} action={action} set={props.set} label={props.label} editable={editable}>
      {props.items.map((item, i) => (
        <li key={item.id} data-order-id={item.id} class="ordered-item">
          <p class="item-head">
            <strong>{item.label}</strong> <span class="muted">({item.asset.name})</span>
          </p>
          {editable ? (
            <>
              <PostForm action={`${action}/save`} csrf={ctx.session.csrf} class="item-edit" label={`Edit ${item.label}`}>
                <input type="hidden" name="what" value="file" />
                <input type="hidden" name="id" value={item.id} />
                <input type="hidden" name={props.parentField} value={props.parentId} />
                <Version version={props.sub.version} />
                <Input form={`file-${item.id}`} name="label" label={`Label of ${item.label}`} again={again} value={item.label} maxLength={200} />
                <button type="submit" class="secondary">
                  Save<span class="visually-hidden"> {item.label}</span>
                </button>
              </PostForm>
              <RowActions ctx={ctx} action={action} set={props.set} id={item.id} name={item.label} index={i} count={props.items.length} />
            </>
          ) : null}
        </li>
      ))}
    </Ordered>
  );
}

function AddFiles(props: { sub: Sub<Doc>; parentField: string; parentId: string; parentName: string; assets: Asset[] }) {
  const { ctx, again, action } = props.sub;
  const form = `new-file-${props.parentId}`;
  return (
    <details>
      <summary>Add files to {props.parentName}</summary>
      <PostForm action={`${action}/save`} csrf={ctx.session.csrf} label={`Add files to ${props.parentName}`}>
        <input type="hidden" name="what" value="file" />
        <input type="hidden" name={props.parentField} value={props.parentId} />
        <AssetPicker form={form} legend="Files" assets={props.assets} again={again} />
        <Input form={form} name="label" label="Label (optional; the file’s name when empty)" again={again} maxLength={200} />
        <button type="submit">Add files</button>
      </PostForm>
    </details>
  );
}

function DownloadsEditor(props: Sub<DownloadsDocument>) {
  const { ctx, doc, again, action, editable } = props;
  return (
    <>
      <h2>Groups</h2>
      {doc.groups.length === 0 ? <p class="muted">No groups yet: add one, then its files.</p> : null}
      <Ordered ctx={ctx} action={action} set="groups" label="Groups" editable={editable}>
        {doc.groups.map((group, i) => (
          <li key={group.id} data-order-id={group.id} class="ordered-item">
            <h3>{group.title}</h3>
            {editable ? (
              <>
                <PostForm action={`${action}/save`} csrf={ctx.session.csrf} class="item-edit" label={`Rename ${group.title}`}>
                  <input type="hidden" name="what" value="group" />
                  <input type="hidden" name="id" value={group.id} />
                  <Version version={props.version} />
                  <Input form={`group-${group.id}`} name="title" label={`Title of ${group.title}`} again={again} value={group.title} maxLength={200} />
                  <button type="submit" class="secondary">
                    Save<span class="visually-hidden"> {group.title}</span>
                  </button>
                </PostForm>
                <RowActions ctx={ctx} action={action} set="groups" id={group.id} name={group.title} index={i} count={doc.groups.length} />
              </>
            ) : null}
            <FileList sub={props} set={`items:${group.id}`} label={`Files of ${group.title}`} parentField="groupId" parentId={group.id} items={group.items} />
            {editable ? <AddFiles sub={props} parentField="groupId" parentId={group.id} parentName={group.title} assets={props.assets} /> : null}
          </li>
        ))}
      </Ordered>
      {editable ? (
        <>
          <h2>Add a group</h2>
          <PostForm action={`${action}/save`} csrf={ctx.session.csrf} label="Add a group">
            <input type="hidden" name="what" value="group" />
            <Input form="new-group" name="title" label="Group title" again={again} maxLength={200} />
            <button type="submit">Add group</button>
          </PostForm>
        </>
      ) : null}
    </>
  );
}

function InvestmentEditor(props: Sub<InvestmentDocument>) {
  const { ctx, doc, action, editable } = props;
  return (
    <>
      <h2>Sections</h2>
      {doc.sections.length === 0 ? <p class="muted">No sections yet.</p> : null}
      <Ordered ctx={ctx} action={action} set="sections" label="Sections" editable={editable}>
        {doc.sections.map((section, i) => (
          <li key={section.id} data-order-id={section.id} class="ordered-item">
            <h3>{section.title}</h3>
            {editable ? (
              <>
                <SectionForm {...props} form={`section-${section.id}`} id={section.id} title={section.title} description={section.description} html />
                <RowActions ctx={ctx} action={action} set="sections" id={section.id} name={section.title} index={i} count={doc.sections.length} />
              </>
            ) : null}
            <FileList
              sub={props}
              set={`files:${section.id}`}
              label={`Files of ${section.title}`}
              parentField="sectionId"
              parentId={section.id}
              items={section.files}
            />
            {editable ? <AddFiles sub={props} parentField="sectionId" parentId={section.id} parentName={section.title} assets={props.assets} /> : null}
          </li>
        ))}
      </Ordered>
      {editable ? (
        <>
          <h2>Add a section</h2>
          <SectionForm {...props} form="new-section" html />
        </>
      ) : null}
    </>
  );
}

const CATEGORY_OPTIONS = POI_CATEGORIES.map((c): [string, string] => [c, c.charAt(0) + c.slice(1).toLowerCase()]);

function PoiFields(props: { form: string; again: Again; poi?: MapDocument['pois'][number] }) {
  const { form, again, poi } = props;
  const of = poi ? ` of ${poi.label}` : '';
  return (
    <>
      <Choice form={form} name="category" label={`Category${of}`} again={again} value={poi?.category ?? 'TRANSIT'} options={CATEGORY_OPTIONS} />
      <Input form={form} name="label" label={`Label${of}`} again={again} value={poi?.label} maxLength={200} />
      <Input form={form} name="lat" label={`Latitude${of}`} again={again} value={poi ? String(poi.lat) : ''} inputMode="decimal" />
      <Input form={form} name="lng" label={`Longitude${of}`} again={again} value={poi ? String(poi.lng) : ''} inputMode="decimal" />
      <Input
        form={form}
        name="customDistanceLabel"
        label={`Distance text${of} (optional)`}
        again={again}
        value={poi?.customDistanceLabel}
        hint="Replaces the distance computed from the map’s centre, such as “5 minutes on foot”."
        maxLength={200}
      />
    </>
  );
}

function MapEditor(props: Sub<MapDocument>) {
  const { ctx, doc, again, action, editable } = props;
  const num = (n: number | null) => (n === null ? '' : String(n));
  return (
    <>
      <h2>Map settings</h2>
      {editable ? (
        <PostForm action={`${action}/save`} csrf={ctx.session.csrf} label="Map settings">
          <input type="hidden" name="what" value="settings" />
          <Version version={props.version} />
          <Input form="settings" name="centerLat" label="Latitude of the project" again={again} value={num(doc.centerLat)} inputMode="decimal" />
          <Input form="settings" name="centerLng" label="Longitude of the project" again={again} value={num(doc.centerLng)} inputMode="decimal" />
          <Input
            form="settings"
            name="defaultZoom"
            label="Zoom"
            hint="0 (the world) to 22 (a building); 14 shows a neighbourhood."
            again={again}
            value={num(doc.defaultZoom)}
            inputMode="numeric"
          />
          <Choice
            form="settings"
            name="tileStyle"
            label="Map style"
            again={again}
            value={doc.tileStyle ?? 'VOYAGER'}
            options={TILE_STYLES.map((s): [string, string] => [s, s.charAt(0) + s.slice(1).toLowerCase().replace(/_/g, ' ')])}
          />
          <button type="submit">Save map settings</button>
        </PostForm>
      ) : (
        <p>
          Centre: {doc.centerLat ?? '—'}, {doc.centerLng ?? '—'}; zoom {doc.defaultZoom ?? '—'}
        </p>
      )}
      <h2>Places</h2>
      {doc.pois.length === 0 ? <p class="muted">No places yet.</p> : null}
      <Ordered ctx={ctx} action={action} set="pois" label="Places" editable={editable}>
        {doc.pois.map((poi, i) => (
          <li key={poi.id} data-order-id={poi.id} class="ordered-item">
            <strong>{poi.label}</strong>{' '}
            <span class="muted">
              ({CATEGORY_OPTIONS.find(([c]) => c === poi.category)?.[1] ?? poi.category}
              {poi.distanceLabel ? `, ${poi.distanceLabel}` : ''})
            </span>
            {editable ? (
              <>
                <details>
                  <summary>Edit {poi.label}</summary>
                  <PostForm action={`${action}/save`} csrf={ctx.session.csrf} label={`Edit ${poi.label}`}>
                    <input type="hidden" name="what" value="poi" />
                    <input type="hidden" name="id" value={poi.id} />
                    <Version version={props.version} />
                    <PoiFields form={`poi-${poi.id}`} again={again} poi={poi} />
                    <button type="submit" class="secondary">
                      Save<span class="visually-hidden"> {poi.label}</span>
                    </button>
                  </PostForm>
                </details>
                <RowActions ctx={ctx} action={action} set="pois" id={poi.id} name={poi.label} index={i} count={doc.pois.length} />
              </>
            ) : null}
          </li>
        ))}
      </Ordered>
      {editable ? (
        <>
          <h2>Add a place</h2>
          <PostForm action={`${action}/save`} csrf={ctx.session.csrf} label="Add a place">
            <input type="hidden" name="what" value="poi" />
            <PoiFields form="new-poi" again={again} />
            <button type="submit">Add place</button>
          </PostForm>
        </>
      ) : null}
    </>
  );
}

// -------------------------------------------------------------------------------------------- routes

/** A number field: the number, or the text itself when it is not one (the schema then names the field). */
const numberOf = (value: string): unknown => {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : trimmed;
};

/** A form the screen refuses: its errors keyed `<form>.<field>` and its values to show again. */
class Refused extends Error {
  constructor(
    readonly again: Again,
    readonly status = 422,
  ) {
    super('refused');
  }
}

/** Checks `input` with the API's schema; refused with each field's message next to it in form `form`. */
function check(schema: TSchema, input: Record<string, unknown>, form: string, values: Record<string, string>): void {
  const errors = checkWith(schema, input, MESSAGES);
  if (Object.keys(errors).length === 0) return;
  throw new Refused({
    errors: Object.fromEntries(Object.entries(errors).map(([field, message]) => [`${form}.${field}`, message])),
    values: Object.fromEntries(Object.entries(values).map(([k, v]) => [`${form}.${k}`, v])),
  });
}

/** The add-ons: per estate, each of the four turned on or off, its sections and items edited and ordered. */
export async function addonScreen(app: FastifyInstance): Promise<void> {
  const services = app.services.addons;
  const db = app.deps.db;
  const config = { auth: 'none' as const };

  const build = async (ctx: OrgContext, estateId: string, kind: AddonKind) => services[kind].build(db, ctx.org.organizationId, estateId);
  const estateOf = async (ctx: OrgContext, id: string) => {
    if (!isUuid(id)) throw new AppError('notFound', `Estate with id ${id} not found`);
    return app.services.estates.get(ctx.org.organizationId, id.toLowerCase());
  };
  const kindOf = (kind: string): AddonKind => {
    if (!(kind in KINDS)) throw new AppError('notFound', `There is no add-on ${kind}`);
    return kind as AddonKind;
  };
  const assetsFor = async (ctx: OrgContext) => (await app.services.assets.list(ctx.org.organizationId, { limit: 500 })).items;

  const editor = async (reply: FastifyReply, ctx: OrgContext, estate: Estate, kind: AddonKind, again: Again, done?: string, status = 200) => {
    // The form carries the edit version: an image's variants arriving after the page was opened move the
    // add-on's version (its public document shows them) but not this, so they never make a form stale.
    const [{ doc, editVersion }, assets] = await Promise.all([build(ctx, estate.id, kind), kind === 'map' ? Promise.resolve([]) : assetsFor(ctx)]);
    return sendHtml(reply, <Editor ctx={ctx} estate={estate} kind={kind} doc={doc} version={editVersion} assets={assets} again={again} done={done} />, status);
  };

  app.get('/addons', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    const page = await app.services.estates.list(ctx.org.organizationId, { limit: 500 });
    const estates = await Promise.all(
      page.items.map(async (estate) => {
        const enabled = {} as Record<AddonKind, boolean>;
        for (const k of KIND_IDS) enabled[k] = (await build(ctx, estate.id, k)).doc.enabled;
        return { estate, enabled };
      }),
    );
    return sendHtml(reply, <EstatePicker ctx={ctx} estates={estates} />);
  });

  app.get('/addons/:estateId', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    const estate = await estateOf(ctx, (request.params as { estateId: string }).estateId);
    const docs = {} as Record<AddonKind, Doc>;
    for (const k of KIND_IDS) docs[k] = (await build(ctx, estate.id, k)).doc;
    return sendHtml(reply, <Overview ctx={ctx} estate={estate} docs={docs} done={(request.query as { done?: string }).done} />);
  });

  app.get('/addons/:estateId/:kind', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    const params = request.params as { estateId: string; kind: string };
    const kind = kindOf(params.kind);
    const estate = await estateOf(ctx, params.estateId);
    return editor(reply, ctx, estate, kind, none, (request.query as { done?: string }).done);
  });

  /** One write of the editor: refused forms show again next to their fields; a stale version is 412. */
  const write = (name: 'enable' | 'move' | 'remove' | 'save') =>
    app.post(`/addons/:estateId/:kind/${name}`, { schema: { hide: true }, config }, async (request, reply) => {
      const ctx = await requireOrg(app, request, 'editor');
      const params = request.params as { estateId: string; kind: string };
      const kind = kindOf(params.kind);
      const estate = await estateOf(ctx, params.estateId);
      const form = formOf(request);
      const back = `${ctx.base}/addons/${estate.id}/${kind}`;
      try {
        if (name === 'enable') {
          const enabled = text(form, 'enabled', 10) === 'true';
          await asUser(ctx, () => services[kind].enable(ctx.org.organizationId, estate.id, enabled));
          return seeOther(reply, `${back}?done=${enabled ? 'enabled' : 'disabled'}`);
        }
        const version = text(form, 'version', 20);
        if (version) {
          const current = await build(ctx, estate.id, kind);
          if (String(current.editVersion) !== version) throw new Refused({ errors: {}, values: {}, problem: STALE }, 412);
        }
        const done = await asUser(ctx, () => apply(ctx, estate.id, kind, name, form));
        // The drag island reloads the editor itself: a 303 would make it fetch a page it never shows.
        if (name === 'move' && request.headers['x-requested-with'] === 'order-island') return reply.code(204).send();
        return seeOther(reply, `${back}?done=${done}`);
      } catch (err) {
        if (err instanceof Refused) return editor(reply, ctx, estate, kind, err.again, undefined, err.status);
        const known = refusal(err);
        if (known && (known.statusCode === 422 || known.statusCode === 400 || known.statusCode === 409)) {
          return editor(reply, ctx, estate, kind, { errors: {}, values: {}, problem: plain(known.message) }, undefined, 422);
        }
        throw err;
      }
    });
  for (const name of ['enable', 'move', 'remove', 'save'] as const) write(name);

  /** The ids of one sibling set (`sections`, `items:<section or empty>`, `groups`, `items:<group>`, `files:<section>`, `pois`), in order. */
  const siblings = (kind: AddonKind, doc: Doc, set: string): string[] | undefined => {
    const [what, parent = ''] = set.split(':');
    const ids = (xs: Array<{ id: string }> | undefined) => xs?.map((x) => x.id);
    if (kind === 'gallery') {
      const d = doc as GalleryDocument;
      if (what === 'sections') return ids(d.sections);
      if (what === 'items') return parent === '' ? ids(d.items) : ids(d.sections.find((s) => s.id === parent)?.items);
    }
    if (kind === 'downloads') {
      const d = doc as DownloadsDocument;
      if (what === 'groups') return ids(d.groups);
      if (what === 'items') return ids(d.groups.find((g) => g.id === parent)?.items);
    }
    if (kind === 'investment') {
      const d = doc as InvestmentDocument;
      if (what === 'sections') return ids(d.sections);
      if (what === 'files') return ids(d.sections.find((s) => s.id === parent)?.files);
    }
    if (kind === 'map' && what === 'pois') return ids((doc as MapDocument).pois);
    return undefined;
  };

  /** Writes a whole order of one set through the add-on's service (the API's PUT …/order). */
  const order = (o: string, estateId: string, kind: AddonKind, set: string, ids: string[]): Promise<unknown> => {
    const [what, parent = ''] = set.split(':');
    if (kind === 'gallery')
      return what === 'sections' ? services.gallery.orderSections(o, estateId, ids) : services.gallery.orderItems(o, estateId, parent || null, ids);
    if (kind === 'downloads')
      return what === 'groups' ? services.downloads.orderGroups(o, estateId, ids) : services.downloads.orderItems(o, estateId, parent, ids);
    if (kind === 'investment')
      return what === 'sections' ? services.investment.orderSections(o, estateId, ids) : services.investment.orderFiles(o, estateId, parent, ids);
    return services.map.orderPois(o, estateId, ids);
  };

  const remove = (o: string, estateId: string, kind: AddonKind, set: string, id: string): Promise<unknown> => {
    const [what, parent = ''] = set.split(':');
    if (kind === 'gallery') return what === 'sections' ? services.gallery.deleteSection(o, estateId, id) : services.gallery.deleteItem(o, estateId, id);
    if (kind === 'downloads')
      return what === 'groups' ? services.downloads.deleteGroup(o, estateId, id) : services.downloads.deleteItem(o, estateId, parent, id);
    if (kind === 'investment')
      return what === 'sections' ? services.investment.deleteSection(o, estateId, id) : services.investment.deleteFile(o, estateId, parent, id);
    return services.map.deletePoi(o, estateId, id);
  };

  /** The chosen files, each one of the organization's (the picker's list); none chosen is the field's error. */
  const chosenAssets = (form: URLSearchParams, formId: string, values: Record<string, string>): string[] => {
    const ids = form.getAll('assetId').slice(0, 200);
    if (ids.length === 0 || ids.some((id) => !isUuid(id)))
      throw new Refused({ errors: { [`${formId}.assetId`]: 'Choose at least one file from the list.' }, values: prefixed(formId, values) });
    return ids.map((id) => id.toLowerCase());
  };
  const prefixed = (formId: string, values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [`${formId}.${k}`, v]));

  async function apply(ctx: OrgContext, estateId: string, kind: AddonKind, name: 'move' | 'remove' | 'save', form: URLSearchParams): Promise<string> {
    const o = ctx.org.organizationId;
    const id = text(form, 'id', 200).toLowerCase();
    if (name === 'move' || name === 'remove') {
      const set = text(form, 'set', 300);
      const ids = siblings(kind, (await build(ctx, estateId, kind)).doc, set);
      const at = ids?.indexOf(id) ?? -1;
      if (!ids || at < 0) throw new AppError('notFound', 'This item is no longer there; the page shows the current list.');
      if (name === 'remove') {
        await remove(o, estateId, kind, set, id);
        return 'removed';
      }
      const direction = text(form, 'direction', 10);
      const to = direction === 'up' ? at - 1 : direction === 'down' ? at + 1 : Number.parseInt(text(form, 'to', 10), 10);
      if (!Number.isInteger(to)) throw new AppError('badRequest', 'Choose Move up or Move down.');
      const target = Math.min(Math.max(to, 0), ids.length - 1);
      if (target !== at) {
        const next = ids.filter((x) => x !== id);
        next.splice(target, 0, id);
        await order(o, estateId, kind, set, next);
      }
      return 'moved';
    }
    const what = text(form, 'what', 20);
    if (kind === 'gallery' && what === 'section') return saveSection(o, estateId, 'gallery', id, form);
    if (kind === 'investment' && what === 'section') return saveSection(o, estateId, 'investment', id, form);
    if (kind === 'gallery' && what === 'item') {
      const values = { caption: text(form, 'caption', 1000), sectionId: text(form, 'sectionId', 200) };
      const caption = values.caption.trim() ? values.caption.trim() : null;
      const sectionId = values.sectionId ? values.sectionId.toLowerCase() : null;
      if (id) {
        const input = { caption, ...(form.has('sectionId') ? { sectionId } : {}) };
        check(UpdateGalleryItem, input, `item-${id}`, values);
        await services.gallery.updateItem(o, estateId, id, input);
        return 'saved';
      }
      const assetIds = chosenAssets(form, 'new-item', values);
      for (const assetId of assetIds) check(CreateGalleryItem, { assetId, caption, sectionId }, 'new-item', values);
      await checkMedia(ctx, assetIds, 'new-item', values, /^(image|video)\//i, 'Choose images or videos from the list.');
      for (const assetId of assetIds) await services.gallery.createItem(o, estateId, { assetId, caption, sectionId });
      return 'added';
    }
    if (kind === 'downloads' && what === 'group') {
      const values = { title: text(form, 'title', 1000) };
      const input = { title: values.title.trim() };
      if (id) {
        check(UpdateDownloadsGroup, input, `group-${id}`, values);
        await services.downloads.updateGroup(o, estateId, id, input);
        return 'saved';
      }
      check(CreateDownloadsGroup, input, 'new-group', values);
      await services.downloads.createGroup(o, estateId, input);
      return 'added';
    }
    if ((kind === 'downloads' || kind === 'investment') && what === 'file') {
      const parent = text(form, kind === 'downloads' ? 'groupId' : 'sectionId', 200).toLowerCase();
      const values = { label: text(form, 'label', 1000) };
      const label = values.label.trim();
      if (id) {
        const formId = `file-${id}`;
        if (kind === 'downloads') {
          check(UpdateDownloadsItem, { label }, formId, values);
          await services.downloads.updateItem(o, estateId, parent, id, { label });
        } else {
          check(UpdateInvestmentFile, { label }, formId, values);
          await services.investment.updateFile(o, estateId, parent, id, { label });
        }
        return 'saved';
      }
      const formId = `new-file-${parent}`;
      const assetIds = chosenAssets(form, formId, values);
      const input = (assetId: string) => ({ assetId, ...(label ? { label } : {}) });
      for (const assetId of assetIds) check(kind === 'downloads' ? CreateDownloadsItem : CreateInvestmentFile, input(assetId), formId, values);
      await checkMedia(ctx, assetIds, formId, values, /./, 'Choose files from the list.');
      for (const assetId of assetIds) {
        if (kind === 'downloads') await services.downloads.createItem(o, estateId, parent, input(assetId));
        else await services.investment.createFile(o, estateId, parent, input(assetId));
      }
      return 'added';
    }
    if (kind === 'map' && what === 'settings') {
      const values = {
        centerLat: text(form, 'centerLat', 40),
        centerLng: text(form, 'centerLng', 40),
        defaultZoom: text(form, 'defaultZoom', 40),
        tileStyle: text(form, 'tileStyle', 40),
      };
      const input: Record<string, unknown> = {
        centerLat: numberOf(values.centerLat) ?? null,
        centerLng: numberOf(values.centerLng) ?? null,
        tileStyle: values.tileStyle,
      };
      const zoom = numberOf(values.defaultZoom);
      if (zoom !== undefined) input.defaultZoom = zoom;
      check(PutMapBody, input, 'settings', values);
      if ((input.centerLat === null) !== (input.centerLng === null)) {
        const missing = input.centerLat === null ? 'centerLat' : 'centerLng';
        throw new Refused({
          errors: { [`settings.${missing}`]: 'Enter both the latitude and the longitude, or neither.' },
          values: prefixed('settings', values),
        });
      }
      await services.map.put(o, estateId, input as never);
      return 'saved';
    }
    if (kind === 'map' && what === 'poi') {
      const values = {
        category: text(form, 'category', 40),
        label: text(form, 'label', 1000),
        lat: text(form, 'lat', 40),
        lng: text(form, 'lng', 40),
        customDistanceLabel: text(form, 'customDistanceLabel', 1000),
      };
      const input: Record<string, unknown> = {
        category: values.category,
        label: values.label.trim(),
        lat: numberOf(values.lat),
        lng: numberOf(values.lng),
        customDistanceLabel: values.customDistanceLabel.trim() || null,
      };
      if (id) {
        check(UpdatePoiBody, input, `poi-${id}`, values);
        await services.map.updatePoi(o, estateId, id, input as never);
        return 'saved';
      }
      // A new place needs its coordinates: the schema names the missing one.
      for (const k of ['lat', 'lng'] as const) if (input[k] === undefined) input[k] = values[k];
      check(CreatePoiBody, input, 'new-poi', values);
      await services.map.createPoi(o, estateId, input as never);
      return 'added';
    }
    throw new AppError('badRequest', 'This form cannot be read; reload the page.');
  }

  /** A gallery or investment section: the title and text (the investment's HTML sanitised by its service, as in the API). */
  async function saveSection(o: string, estateId: string, kind: 'gallery' | 'investment', id: string, form: URLSearchParams): Promise<string> {
    const values = { title: text(form, 'title', 1000), description: text(form, 'description', 200_000) };
    const title = values.title.trim();
    const formId = id ? `section-${id}` : 'new-section';
    if (kind === 'gallery') {
      const input = { title, description: values.description.trim() || null };
      check(id ? UpdateGallerySection : CreateGallerySection, input, formId, values);
      if (id) await services.gallery.updateSection(o, estateId, id, input);
      else await services.gallery.createSection(o, estateId, input);
    } else {
      const input = { title, description: values.description };
      check(id ? UpdateInvestmentSection : CreateInvestmentSection, input, formId, values);
      if (id) await services.investment.updateSection(o, estateId, id, input);
      else await services.investment.createSection(o, estateId, input);
    }
    return id ? 'saved' : 'added';
  }

  /** Every chosen file is one of the organization's and of the kind the add-on takes, before anything is written. */
  async function checkMedia(ctx: OrgContext, ids: string[], formId: string, values: Record<string, string>, kind: RegExp, message: string): Promise<void> {
    for (const id of ids) {
      const asset = await app.services.assets.get(ctx.org.organizationId, id).catch(() => undefined);
      if (!asset || !kind.test(asset.mimeType)) throw new Refused({ errors: { [`${formId}.assetId`]: message }, values: prefixed(formId, values) });
    }
  }
}
