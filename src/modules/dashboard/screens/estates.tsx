import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../../errors.js';
import { etagOf } from '../../../http/etag.js';
import { isUuid } from '../../../ids.js';
import { CreateBuildingBody, UpdateBuildingBody } from '../../buildings/schemas.js';
import { SetupBody, UpdateEstateBody } from '../../estates/schemas.js';
import type { Estate } from '../../estates/schemas.js';
import { ErrorSummary, type Errors, Field, Notice, PostForm, Problem } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Shell } from '../render/shell.js';
import { type OrgContext, asUser, hasRole, requireOrg } from '../session.js';
import { formOf, refusal, text } from './form-body.js';
import { checkWith } from './validate.js';

const LABELS = { name: 'Estate name', buildingName: 'Building', slug: 'Web address (slug)', description: 'Description' };
const MESSAGES = {
  name: 'Enter the estate’s name (at most 200 characters).',
  buildingName: 'Enter the first building’s name (at most 200 characters), or leave it empty for “Building 1”.',
  slug: 'Use lower-case letters, digits and hyphens only, such as harbour-view (at most 100 characters).',
  description: 'The description is too long (at most 20,000 characters).',
};
const DONE: Record<string, string> = {
  created: 'The estate is set up with its first building.',
  saved: 'The estate is saved.',
  building: 'The building is added.',
  renamed: 'The building is renamed.',
};
const BUILDING_NAME = 'Enter the building’s name (at most 200 characters).';
export const STALE = 'Someone changed this since you opened it. The form now shows the current version: check it and make your change again.';

/** A refusal the form shows next to a field: duplicates are 409 in the API. */
function conflictField(err: AppError): Errors {
  return /slug/i.test(err.message)
    ? { slug: 'Another estate already has this web address; choose another.' }
    : { name: 'Another estate of your organization already has this name.' };
}

function EstateList(props: { ctx: OrgContext; estates: Estate[]; values: Record<string, string>; errors: Errors; done?: string | undefined }) {
  const { ctx } = props;
  return (
    <Shell ctx={ctx} title="Estates" current="estates">
      <Notice text={props.done ? DONE[props.done] : undefined} />
      {props.estates.length === 0 ? (
        <p>No estates yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Estates</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Web address</th>
                <th scope="col">Buildings</th>
              </tr>
            </thead>
            <tbody>
              {props.estates.map((e) => (
                <tr key={e.id}>
                  <td>
                    <a href={`${ctx.base}/estates/${e.id}`}>{e.name}</a>
                  </td>
                  <td>/p/{e.slug}</td>
                  <td>{e.buildings.length}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {hasRole(ctx, 'editor') ? (
        <>
          <h2 id="setup">Quick setup</h2>
          <p class="muted">An estate with its first building and its navigator, in one step.</p>
          <ErrorSummary errors={props.errors} labels={LABELS} />
          <PostForm action={`${ctx.base}/estates`} csrf={ctx.session.csrf} label="Quick setup">
            <Field name="name" label="Estate name" value={props.values.name} errors={props.errors} maxLength={200} />
            <Field
              name="buildingName"
              label="First building"
              hint="Optional; “Building 1” when empty."
              value={props.values.buildingName}
              errors={props.errors}
              maxLength={200}
            />
            <Field
              name="slug"
              label="Web address (slug)"
              hint="Optional; made from the name when empty."
              value={props.values.slug}
              errors={props.errors}
              maxLength={100}
            />
            <button type="submit">Create estate</button>
          </PostForm>
        </>
      ) : null}
    </Shell>
  );
}

function EstateEdit(props: { ctx: OrgContext; estate: Estate; values?: Record<string, string>; errors: Errors; problem?: string; done?: string | undefined }) {
  const { ctx, estate } = props;
  const v = props.values ?? { name: estate.name, slug: estate.slug, description: estate.description ?? '' };
  const editable = hasRole(ctx, 'editor');
  return (
    <Shell ctx={ctx} title={estate.name} current="estates">
      <p>
        <a href={`${ctx.base}/estates`}>All estates</a>
      </p>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <Problem text={props.problem} />
      <ErrorSummary errors={props.errors} labels={LABELS} />
      {editable ? (
        <PostForm action={`${ctx.base}/estates/${estate.id}`} csrf={ctx.session.csrf} label="Edit estate">
          <input type="hidden" name="version" value={etagOf(estate)} />
          <Field name="name" label="Estate name" value={v.name} errors={props.errors} maxLength={200} />
          <Field name="slug" label="Web address (slug)" value={v.slug} errors={props.errors} maxLength={100} />
          <div class={props.errors.description ? 'field field-error' : 'field'}>
            <label for="field-description">Description</label>
            {props.errors.description ? <p class="error-message">{props.errors.description}</p> : null}
            <textarea id="field-description" name="description" rows={5} maxLength={20000}>
              {v.description}
            </textarea>
          </div>
          <button type="submit">Save estate</button>
        </PostForm>
      ) : (
        <dl>
          <dt>Web address</dt>
          <dd>/p/{estate.slug}</dd>
          <dt>Description</dt>
          <dd>{estate.description ?? '—'}</dd>
        </dl>
      )}
      <h2>Buildings</h2>
      {editable ? (
        <>
          <ul class="plain">
            {estate.buildings.map((b) => (
              <li key={b.id}>
                <PostForm action={`${ctx.base}/buildings/${b.id}`} csrf={ctx.session.csrf} class="inline">
                  <label for={`building-${b.id}`} class="visually-hidden">
                    Name of {b.name}
                  </label>
                  <input id={`building-${b.id}`} name="name" value={b.name} maxLength={200} />
                  <button type="submit" class="secondary">
                    Rename<span class="visually-hidden"> {b.name}</span>
                  </button>
                </PostForm>
              </li>
            ))}
          </ul>
          <PostForm action={`${ctx.base}/estates/${estate.id}/buildings`} csrf={ctx.session.csrf} label="Add a building">
            <Field name="buildingName" label="New building" errors={props.errors} maxLength={200} />
            <button type="submit">Add building</button>
          </PostForm>
        </>
      ) : (
        <ul>
          {estate.buildings.map((b) => (
            <li key={b.id}>{b.name}</li>
          ))}
        </ul>
      )}
      <p>
        <a href={`${ctx.base}/apartments?estateId=${estate.id}`}>Apartments of this estate</a>
      </p>
    </Shell>
  );
}

/** Estates: the list, quick setup (estate, first building, navigator) and the edit form. */
export async function estateScreen(app: FastifyInstance): Promise<void> {
  const estates = app.services.estates;
  const config = { auth: 'none' as const };
  const list = async (reply: FastifyReply, ctx: OrgContext, extra: { values?: Record<string, string>; errors?: Errors; done?: string }, status = 200) => {
    const page = await estates.list(ctx.org.organizationId, { limit: 500 });
    return sendHtml(reply, <EstateList ctx={ctx} estates={page.items} values={extra.values ?? {}} errors={extra.errors ?? {}} done={extra.done} />, status);
  };
  const estateOf = async (ctx: OrgContext, id: string) => {
    if (!isUuid(id)) throw new AppError('notFound', `Estate with id ${id} not found`);
    return estates.get(ctx.org.organizationId, id.toLowerCase());
  };

  app.get('/estates', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    return list(reply, ctx, { done: (request.query as { done?: string }).done });
  });

  app.post('/estates', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const form = formOf(request);
    const values = { name: text(form, 'name', 1000), buildingName: text(form, 'buildingName', 1000), slug: text(form, 'slug', 1000) };
    const input: Record<string, unknown> = { name: values.name.trim() };
    if (values.buildingName.trim()) input.buildingName = values.buildingName.trim();
    if (values.slug.trim()) input.slug = values.slug.trim();
    const errors = checkWith(SetupBody, input, MESSAGES);
    if (Object.keys(errors).length > 0) return list(reply, ctx, { values, errors }, 422);
    try {
      const made = await asUser(ctx, () => estates.setup(ctx.org.organizationId, input as never));
      return seeOther(reply, `${ctx.base}/estates/${made.estate.id}?done=created`);
    } catch (err) {
      if (refusal(err)?.statusCode === 409) return list(reply, ctx, { values, errors: conflictField(refusal(err)!) }, 409);
      throw err;
    }
  });

  app.get('/estates/:estateId', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    const estate = await estateOf(ctx, (request.params as { estateId: string }).estateId);
    return sendHtml(reply, <EstateEdit ctx={ctx} estate={estate} errors={{}} done={(request.query as { done?: string }).done} />);
  });

  app.post('/estates/:estateId/buildings', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const estate = await estateOf(ctx, (request.params as { estateId: string }).estateId);
    const name = text(formOf(request), 'buildingName', 1000).trim();
    const input = { name, estateId: estate.id };
    const errors = checkWith(CreateBuildingBody, input, { name: BUILDING_NAME });
    if (errors.name) return sendHtml(reply, <EstateEdit ctx={ctx} estate={estate} errors={{ buildingName: errors.name }} />, 422);
    try {
      await asUser(ctx, () => app.services.buildings.create(ctx.org.organizationId, input));
    } catch (err) {
      if (refusal(err)?.statusCode === 409) {
        return sendHtml(reply, <EstateEdit ctx={ctx} estate={estate} errors={{ buildingName: 'This estate already has a building with this name.' }} />, 409);
      }
      throw err;
    }
    return seeOther(reply, `${ctx.base}/estates/${estate.id}?done=building`);
  });

  app.post('/buildings/:buildingId', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const id = (request.params as { buildingId: string }).buildingId;
    if (!isUuid(id)) throw new AppError('notFound', `Building with id ${id} not found`);
    const building = await app.services.buildings.get(ctx.org.organizationId, id.toLowerCase());
    const estate = await estateOf(ctx, building.estateId);
    const name = text(formOf(request), 'name', 1000).trim();
    const errors = checkWith(UpdateBuildingBody, { name }, { name: BUILDING_NAME });
    if (errors.name) return sendHtml(reply, <EstateEdit ctx={ctx} estate={estate} errors={{}} problem={errors.name} />, 422);
    try {
      await asUser(ctx, () => app.services.buildings.update(ctx.org.organizationId, building.id, { name }));
    } catch (err) {
      if (refusal(err)?.statusCode === 409) {
        return sendHtml(reply, <EstateEdit ctx={ctx} estate={estate} errors={{}} problem="This estate already has a building with this name." />, 409);
      }
      throw err;
    }
    return seeOther(reply, `${ctx.base}/estates/${estate.id}?done=renamed`);
  });

  app.post('/estates/:estateId', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'editor');
    const estate = await estateOf(ctx, (request.params as { estateId: string }).estateId);
    const form = formOf(request);
    const values = { name: text(form, 'name', 1000), slug: text(form, 'slug', 1000), description: text(form, 'description', 200_000) };
    const input: Record<string, unknown> = { name: values.name.trim(), slug: values.slug.trim(), description: values.description.trim() || null };
    const errors = checkWith(UpdateEstateBody, input, MESSAGES);
    if (Object.keys(errors).length > 0) return sendHtml(reply, <EstateEdit ctx={ctx} estate={estate} values={values} errors={errors} />, 422);
    try {
      await asUser(ctx, () => estates.update(ctx.org.organizationId, estate.id, input as never, text(form, 'version', 200) || undefined));
      return seeOther(reply, `${ctx.base}/estates/${estate.id}?done=saved`);
    } catch (err) {
      if (refusal(err)?.statusCode === 409)
        return sendHtml(reply, <EstateEdit ctx={ctx} estate={estate} values={values} errors={conflictField(refusal(err)!)} />, 409);
      if (refusal(err)?.statusCode === 412) {
        const current = await estateOf(ctx, estate.id);
        return sendHtml(reply, <EstateEdit ctx={ctx} estate={current} errors={{}} problem={STALE} />, 412);
      }
      throw err;
    }
  });
}
