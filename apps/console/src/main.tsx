import { QueryClientProvider } from "@tanstack/react-query"
import { RouterProvider } from "@tanstack/react-router"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { queryClient, whenSignedOut } from "./api/queryClient.ts"
import { makeRouter } from "./router.tsx"
import "./styles.css"

const router = makeRouter(queryClient)

// The sign-in pages expect a 401 (a wrong password); elsewhere it means the session has ended.
const signInPages = new Set(["/sign-in", "/link", "/reset", "/invitation"])
whenSignedOut(() => {
  const here = router.state.location
  if (signInPages.has(here.pathname)) return
  queryClient.clear()
  void router.navigate({ to: "/sign-in", search: { redirect: here.href } })
})

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>
)
