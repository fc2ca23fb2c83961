// The example service of StateStore's getting-started guide; its code is the StateStoreExample library.
import StateStoreExample

StartsExample.main()
