import type { ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout';
import { Loading } from './components/ui';
import { useSession } from './session';
import { SignInPage, SignUpPage } from './pages/AuthPages';
import { NotFoundPage } from './pages/NotFoundPage';
import { LinksPage } from './pages/LinksPage';
import { LinkPage } from './pages/LinkPage';
import { ImportPage } from './pages/ImportPage';
import { FoldersPage } from './pages/FoldersPage';
import { TagsPage } from './pages/TagsPage';
import { UtmTemplatesPage } from './pages/UtmTemplatesPage';
import { DomainsPage } from './pages/DomainsPage';
import { WebhooksPage } from './pages/WebhooksPage';
import { KeysPage } from './pages/KeysPage';
import { AccountPage } from './pages/AccountPage';

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
