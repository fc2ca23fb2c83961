public enum StateStoreTestingPlaceholder {}
