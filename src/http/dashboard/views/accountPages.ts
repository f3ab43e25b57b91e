import { PASSWORD_MIN } from '../../../domain/adminPassword.js';
import { CLUB_NAME_MAX } from '../../../domain/clubIds.js';
import { html } from '../../views/html.js';
import { csrfField, notice, publicDashboardPage } from './frame.js';

export interface SignUpForm {
  csrfToken: string;
  clubName: string;
  email: string;
  error: string | null;
}

export function renderSignUpPage(form: SignUpForm): string {
  return publicDashboardPage(
    'Sign up your club',
    html`<h1>Sign up your club</h1>
<p class="muted">A club dashboard collects the players, stats and play-by-play of the matches your scoring apps upload with your club's app key.</p>
${notice(form.error, 'error')}
<form method="post" action="/dashboard/signup" class="stack">
${csrfField(form.csrfToken)}
<label>Club name <input type="text" name="clubName" value="${form.clubName}" required maxlength="${CLUB_NAME_MAX}" autocomplete="organization"></label>
<label>Your email <small>(you log in with it)</small> <input type="email" name="email" value="${form.email}" required autocomplete="email"></label>
<label>Password <small>(at least ${PASSWORD_MIN} characters)</small> \
<input type="password" name="password" required minlength="${PASSWORD_MIN}" autocomplete="new-password"></label>
<button type="submit">Create the club</button>
</form>
<p>Already signed up? <a href="/dashboard/login">Log in</a>.</p>`,
  );
}

export interface LoginForm {
  csrfToken: string;
  email: string;
  error: string | null;
  info: string | null;
}

export function renderLoginPage(form: LoginForm): string {
  return publicDashboardPage(
    'Log in',
    html`<h1>Log in to your club dashboard</h1>
${notice(form.info)}
${notice(form.error, 'error')}
<form method="post" action="/dashboard/login" class="stack">
${csrfField(form.csrfToken)}
<label>Email <input type="email" name="email" value="${form.email}" required autocomplete="username"></label>
<label>Password <input type="password" name="password" required autocomplete="current-password"></label>
<button type="submit">Log in</button>
</form>
<p>No club yet? <a href="/dashboard/signup">Sign up your club</a>.</p>`,
  );
}

export function renderDashboardErrorPage(status: number, title: string, message: string, back: { href: string; label: string }): string {
  return publicDashboardPage(
    title,
    html`<h1>${title}</h1>
${notice(message, 'error')}
<p><a href="${back.href}">${back.label}</a></p>
<p class="muted">HTTP ${status}</p>`,
  );
}
