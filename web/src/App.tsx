import { lazy, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout';
import { Loading } from './components/ui';
import { useSession } from './session';
import { SignInPage, SignUpPage } from './pages/AuthPages';
import { NotFoundPage } from './pages/NotFoundPage';

// Each page is its own chunk: the sign-in page does not download the charts, and a page loads only what it uses.
const LinksPage = lazy(() => import('./pages/LinksPage').then((m) => ({ default: m.LinksPage })));
const LinkPage = lazy(() => import('./pages/LinkPage').then((m) => ({ default: m.LinkPage })));
const ImportPage = lazy(() => import('./pages/ImportPage').then((m) => ({ default: m.ImportPage })));
const FoldersPage = lazy(() => import('./pages/FoldersPage').then((m) => ({ default: m.FoldersPage })));
const TagsPage = lazy(() => import('./pages/TagsPage').then((m) => ({ default: m.TagsPage })));
const UtmTemplatesPage = lazy(() => import('./pages/UtmTemplatesPage').then((m) => ({ default: m.UtmTemplatesPage })));
const DomainsPage = lazy(() => import('./pages/DomainsPage').then((m) => ({ default: m.DomainsPage })));
const WebhooksPage = lazy(() => import('./pages/WebhooksPage').then((m) => ({ default: m.WebhooksPage })));
const KeysPage = lazy(() => import('./pages/KeysPage').then((m) => ({ default: m.KeysPage })));
const AccountPage = lazy(() => import('./pages/AccountPage').then((m) => ({ default: m.AccountPage })));

function RequireSession({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'signed-out') return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  return <>{children}</>;
}

function SignedOutOnly({ children }: { children: ReactNode }) {
  const { state } = useSession();
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'signed-in') return <Navigate to="/links" replace />;
  return <>{children}</>;
}

export function App() {
  return (
    <BrowserRouter basename="/app">
      <Routes>
        <Route path="/sign-in" element={<SignedOutOnly><SignInPage /></SignedOutOnly>} />
        <Route path="/sign-up" element={<SignedOutOnly><SignUpPage /></SignedOutOnly>} />
        <Route element={<RequireSession><Layout /></RequireSession>}>
          <Route index element={<Navigate to="/links" replace />} />
          <Route path="/links" element={<LinksPage />} />
          {/* A short path may hold a slash (namespace/slug): the rest of the address is the link's path. */}
          <Route path="/links/*" element={<LinkPage />} />
          <Route path="/import" element={<ImportPage />} />
          <Route path="/folders" element={<FoldersPage />} />
          <Route path="/tags" element={<TagsPage />} />
          <Route path="/utm-templates" element={<UtmTemplatesPage />} />
          <Route path="/domains" element={<DomainsPage />} />
          <Route path="/webhooks" element={<WebhooksPage />} />
          <Route path="/keys" element={<KeysPage />} />
          <Route path="/account" element={<AccountPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
