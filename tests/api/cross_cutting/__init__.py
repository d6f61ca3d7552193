"""What every route or worker owes, checked across the whole API: authorization matrices, bad input,
unknown fields, path ids, stored values, AWS faults, SQS deliveries."""
