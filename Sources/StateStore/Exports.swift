// The record runtime (unknown fields, defaults, salvage, extensible enums) is part of StateStore's API: a model
// written for StateStore imports StateStore alone.
@_exported import StateCoding
