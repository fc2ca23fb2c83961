public enum StateStorePlaceholder {}
