import DataModelStoreLayout
import FoundationEssentials

// Attribute checks of a validation run: types, custom classes, values and bounds (parsed by the one
// `AttributeValueParser`), patterns.
extension ValidationRun {
    /// Checks `attributes[position]`, reading it in place.
    func check(attributeAt position: Int, of attributes: UnsafeBufferPointer<Attribute>, in entity: Entity) {
        if attributes[position].type == .undefined && !attributes[position].isTransient {
            error(
                "attribute '\(entity.name).\(attributes[position].name)' has type Undefined, which only a transient attribute may have",
                .undefinedNotTransient, attributes[position].location)
        }
        if attributes[position].type == .transformable && (attributes[position].customClassName ?? "").isEmpty {
            warning(
                "transformable attribute '\(entity.name).\(attributes[position].name)' has no custom class; its value is untyped",
                .transformableWithoutClass,
                attributes[position].location)
        }
        if let custom = attributes[position].customClassName, !Validator.trimmingWhitespace(custom).isEmpty,
            !Validator.isTypeReference(custom)
        {
            error(
                "attribute '\(entity.name).\(attributes[position].name)' has custom class '\(custom)', which is not a Swift type name",
                .invalidCustomClassName, attributes[position].location)
        }
        if attributes[position].type == .composite, let composite = attributes[position].composite,
            !model.composites.contains(where: { $0.name == composite })
        {
            error(
                "attribute '\(entity.name).\(attributes[position].name)' uses composite '\(composite)', which the model does not define",
                .unknownComposite,
                attributes[position].location)
        }
        // A date's `…DateTimeInterval` is checked below; its `…ValueString` is then a display text.
        let isDate = attributes[position].type == .date
        let defaultValue = checkValue(
            isDate && attributes[position].defaultDateTimeInterval != nil
                ? nil : attributes[position].valueText(.defaultValue),
            at: position, of: attributes, role: .defaultValue, rule: .invalidDefaultValue)
        let minimum = checkValue(
            isDate && attributes[position].minDateTimeInterval != nil ? nil : attributes[position].valueText(.minimum),
            at: position, of: attributes, role: .minimum, rule: .invalidMinValue)
        let maximum = checkValue(
            isDate && attributes[position].maxDateTimeInterval != nil ? nil : attributes[position].valueText(.maximum),
            at: position, of: attributes, role: .maximum, rule: .invalidMaxValue)
        let defaultDate = checkInterval(
            attributes[position].defaultDateTimeInterval, at: position, of: attributes, role: "default date",
            rule: .invalidDefaultValue)
        let minimumDate = checkInterval(
            attributes[position].minDateTimeInterval, at: position, of: attributes, role: "minimum date",
            rule: .invalidMinValue)
        let maximumDate = checkInterval(
            attributes[position].maxDateTimeInterval, at: position, of: attributes, role: "maximum date",
            rule: .invalidMaxValue)
        if let minimum, let maximum, minimum > maximum {
            error(
                "attribute '\(entity.name).\(attributes[position].name)' has a minimum (\(minimum)) greater than its maximum (\(maximum))",
                .minExceedsMax, attributes[position].location)
        }
        if let minimumDate, let maximumDate, minimumDate > maximumDate {
            error(
                "attribute '\(entity.name).\(attributes[position].name)' has a minimum date greater than its maximum date",
                .minExceedsMax,
                attributes[position].location)
        }
        if attributes[position].type.isNumeric, let value = defaultValue {
            if let minimum, value < minimum {
                warning(
                    "default value of '\(entity.name).\(attributes[position].name)' is below its minimum",
                    .defaultOutOfRange, attributes[position].location)
            }
            if let maximum, value > maximum {
                warning(
                    "default value of '\(entity.name).\(attributes[position].name)' is above its maximum",
                    .defaultOutOfRange, attributes[position].location)
            }
        }
        _ = defaultDate
        if let pattern = attributes[position].regularExpressionString,
            !Validator.isRegularExpression(pattern)
        {
            error(
                "attribute '\(entity.name).\(attributes[position].name)' has an invalid regular expression",
                .invalidRegularExpression,
                attributes[position].location)
        }
    }

    /// Checks a value string; returns its numeric value for range checks (nil when not numeric or absent).
    func checkValue(
        _ text: String?, at position: Int, of attributes: UnsafeBufferPointer<Attribute>, role: AttributeValueRole,
        rule: RuleID
    ) -> Double? {
        guard let text else { return nil }
        let name = attributes[position].name
        switch AttributeValueParser.parse(text, as: attributes[position].type, role: role) {
        case .valid(let value): return value?.number
        case .invalid(let reason):
            // momc compiles such models (the value is coerced or dropped), so this is a warning.
            warning(
                "\(role) value '\(text)' of attribute '\(name)' \(reason); Core Data will ignore or coerce it", rule,
                attributes[position].location)
            return nil
        }
    }

    func checkInterval(
        _ text: String?, at position: Int, of attributes: UnsafeBufferPointer<Attribute>, role: String, rule: RuleID
    ) -> Double? {
        guard let text else { return nil }
        guard let value = AttributeValueParser.seconds(text) else {
            error(
                "\(role) '\(text)' of attribute '\(attributes[position].name)' is not a number of seconds", rule,
                attributes[position].location)
            return nil
        }
        return value
    }
}
