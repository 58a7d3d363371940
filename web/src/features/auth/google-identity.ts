/**
 * Google Identity Services, loaded only when the server has a client id. The credential it
 * returns is the ID token our server verifies.
 */
interface GoogleAccountsId {
  initialize(options: { client_id: string; callback: (response: { credential?: string }) => void }): void;
  prompt(listener?: (notification: { isNotDisplayed(): boolean; isSkippedMoment(): boolean }) => void): void;
}
declare global {
  interface Window {
    google?: { accounts: { id: GoogleAccountsId } };
  }
}

const SCRIPT_URL = 'https://accounts.google.com/gsi/client';

function loadScript(): Promise<void> {
  if (window.google?.accounts) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error('Google sign-in could not be loaded.'));
    document.head.appendChild(script);
  });
}

export async function requestGoogleCredential(clientId: string): Promise<string> {
  await loadScript();
  const accounts = window.google?.accounts.id;
  if (!accounts) throw new Error('Google sign-in could not be loaded.');
  return new Promise((resolve, reject) => {
    accounts.initialize({
      client_id: clientId,
      callback: ({ credential }) => (credential ? resolve(credential) : reject(new Error('Google sign-in was cancelled.'))),
    });
    accounts.prompt((notification) => {
      if (notification.isNotDisplayed() || notification.isSkippedMoment()) {
        reject(new Error('Google sign-in was cancelled.'));
      }
    });
  });
}
