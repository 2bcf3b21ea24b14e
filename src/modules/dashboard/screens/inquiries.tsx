import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../errors.js';
import { INQUIRY_STATUSES } from '../../inquiries/schemas.js';
import { Notice, PostForm } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Shell } from '../render/shell.js';
import { type OrgContext, asUser, requireOrg } from '../session.js';
import { formOf, text } from './form-body.js';

const STATUS_WORDS: Record<string, string> = { NEW: 'New', IN_PROGRESS: 'In progress', WON: 'Won', LOST: 'Lost', SPAM: 'Spam' };

type Inquiries = Awaited<ReturnType<FastifyInstance['services']['inquiries']['list']>>['items'];

function InquiriesScreen(props: { ctx: OrgContext; inquiries: Inquiries; homes: Map<string, string>; done?: string | undefined }) {
  const { ctx } = props;
  return (
    <Shell ctx={ctx} title="Inquiries" current="inquiries">
      <Notice text={props.done === 'status' ? 'The inquiry’s status is changed.' : undefined} />
      {props.inquiries.length === 0 ? <p>No inquiries yet.</p> : null}
      {props.inquiries.map((i) => (
        <article key={i.id} class="inquiry" aria-labelledby={`inquiry-${i.id}`}>
          <h2 id={`inquiry-${i.id}`}>
            {i.name} <span class="muted">· {new Date(i.createdAt).toISOString().slice(0, 16).replace('T', ' ')} UTC</span>
          </h2>
          <p>
            <a href={`mailto:${i.email}`}>{i.email}</a>
            {i.phoneNumber ? ` · ${i.phoneNumber}` : ''}
          </p>
          {i.apartmentIds.length > 0 ? <p>Homes: {i.apartmentIds.map((id) => props.homes.get(id) ?? 'a home since removed').join(', ')}</p> : null}
          {i.info ? <p class="message">{i.info}</p> : null}
          <PostForm action={`${ctx.base}/inquiries/${i.id}/status`} csrf={ctx.session.csrf} class="inline">
            <label for={`status-${i.id}`}>Status</label>
            <select id={`status-${i.id}`} name="status">
              {INQUIRY_STATUSES.map((s) => (
                <option key={s} value={s} selected={s === i.status}>
                  {STATUS_WORDS[s]}
                </option>
              ))}
            </select>
            <button type="submit" class="secondary">
              Set status<span class="visually-hidden"> of the inquiry from {i.name}</span>
            </button>
          </PostForm>
        </article>
      ))}
    </Shell>
  );
}

/** Inquiries, newest first, with the homes they name; every member (viewers too) sets their status. */
export async function inquiryScreen(app: FastifyInstance): Promise<void> {
  const { inquiries, apartments } = app.services;
  const config = { auth: 'none' as const };
  app.get('/inquiries', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    const page = await inquiries.list(ctx.org.organizationId, { sort: '-createdAt', limit: 100 } as never);
    const ids = [...new Set(page.items.flatMap((i) => i.apartmentIds))];
    const homes = new Map<string, string>();
    for (const id of ids) {
      try {
        const { apartment } = await apartments.get(ctx.org.organizationId, id);
        homes.set(id, `${apartment.name} (${apartment.building.name})`);
      } catch (err) {
        if (!(err instanceof AppError && err.statusCode === 404)) throw err;
      }
    }
    return sendHtml(reply, <InquiriesScreen ctx={ctx} inquiries={page.items} homes={homes} done={(request.query as { done?: string }).done} />);
  });
  app.post('/inquiries/:inquiryId/status', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'viewer');
    const status = text(formOf(request), 'status', 20);
    if (!(INQUIRY_STATUSES as readonly string[]).includes(status)) throw new AppError('unprocessable', 'Choose a status.');
    await asUser(ctx, () => inquiries.update(ctx.org.organizationId, (request.params as { inquiryId: string }).inquiryId, { status: status as 'NEW' }));
    return seeOther(reply, `${ctx.base}/inquiries?done=status`);
  });
}
