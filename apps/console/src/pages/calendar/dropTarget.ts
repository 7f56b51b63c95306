import type { DragEvent } from "react"
import { dragType } from "./PostChip.tsx"

/**
 * What makes a day (month view) or an hour (week view) take a dragged post: it shows that it would
 * (`.calendar-drop`), and hands the post's id over on drop. Anything else dragged over it is refused.
 */
export const dropTarget = (onDrop: (postId: string) => void) => {
  const carriesPost = (event: DragEvent) => event.dataTransfer.types.includes(dragType)
  return {
    onDragOver: (event: DragEvent<HTMLElement>) => {
      if (!carriesPost(event)) return
      event.preventDefault()
      event.dataTransfer.dropEffect = "move"
      event.currentTarget.classList.add("calendar-drop")
    },
    onDragLeave: (event: DragEvent<HTMLElement>) => event.currentTarget.classList.remove("calendar-drop"),
    onDrop: (event: DragEvent<HTMLElement>) => {
      event.currentTarget.classList.remove("calendar-drop")
      const id = event.dataTransfer.getData(dragType)
      if (id === "") return
      event.preventDefault()
      onDrop(id)
    }
  }
}
